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
    ["the full notation", "2001:0db8:0001:0002:0000:0000:0000:0001", "2001:db8:1:2::/64"],
    ["the last address of a /64", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["a /64's prefix alone", "2001:db8:1:2::", "2001:db8:1:2::/64"],
    ["an upper-case bracketed address", "[2001:DB8:1:2:ABCD::1]", "2001:db8:1:2::/64"],
    ["a bracketed address with a zone", "[fe80::1%25eth0]", "fe80:0:0:0::/64"],
    ["a bracketed IPv4-mapped address", "[::ffff:192.0.2.1]", "192.0.2.1"],
    ["an upper-case IPv4-mapped address in hex", "::FFFF:C000:0201", "192.0.2.1"],
    ["an IPv4-mapped address written in full", "0:0:0:0:0:ffff:192.0.2.1", "192.0.2.1"],
    ["an address with spaces around it", " 192.0.2.1 ", "192.0.2.1"],
  ])("reduces %s to its client", (_case, address, client) => {
    expect(clientOf(address)).toBe(client)
  })

  it.each([
    "unix:/run/app.sock",
    "2001:db8::1::2",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "2001:db8:1:2::00001",
    "::ffff:300.1.1.1",
  ])("keeps %s as it is when it does not parse", (address) => {
    expect(clientOf(address)).toBe(address.toLowerCase())
  })
})
