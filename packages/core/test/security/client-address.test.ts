import { describe, expect, it } from "vitest"
import { clientOf } from "../../src/security/client-address.js"

describe("clientOf", () => {
  it.each([
    ["an IPv4 address", "192.0.2.1", "192.0.2.1"],
    ["an IPv4-mapped IPv6 address", "::ffff:192.0.2.1", "192.0.2.1"],
    ["an IPv4-mapped IPv6 address in hex", "::ffff:c000:0201", "192.0.2.1"],
    ["a bracketed IPv6 address", "[2001:db8::1]", "2001:db8:0:0::/64"],
    ["an IPv6 address", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["the same /64, another host", "2001:DB8:1:2:ffff::9", "2001:db8:1:2::/64"],
    ["a zone", "fe80::1%eth0", "fe80:0:0:0::/64"],
    ["loopback", "::1", "0:0:0:0::/64"],
    ["NAT64 with an embedded IPv4", "64:ff9b::192.0.2.1", "64:ff9b:0:0::/64"],
  ])("reduces %s to its client", (_case, address, client) => {
    expect(clientOf(address)).toBe(client)
  })

  it.each(["unix:/run/app.sock", "2001:db8::1::2", "1:2:3:4:5:6:7:8:9", "::ffff:300.1.1.1"])(
    "keeps %s as it is when it does not parse",
    (address) => {
      expect(clientOf(address)).toBe(address.toLowerCase())
    },
  )
})
