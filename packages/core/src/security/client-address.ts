/**
 * Who a client is, for rate limits: its IP address as the integration reported it, reduced to
 * what one client controls.
 *
 * - An IPv4 address is itself.
 * - An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports for an IPv4
 *   client) is that IPv4 address: the same client must not get two sets of counters.
 * - Any other IPv6 address is its /64 prefix. One subscriber line gets a whole /64 and may use
 *   any address in it (privacy extensions pick a new one every day): counted per address, an
 *   attacker would have 2^64 fresh counters, and a user's own device would change identity.
 *
 * Anything that does not parse is used as it is (lowercased): the integration decides what an
 * address is, and an odd one still gets counted.
 */

/** The eight 16-bit groups of an IPv6 address, or `undefined`. */
function ipv6Groups(text: string): number[] | undefined {
  let address = text
  // An IPv4 address in the last 32 bits (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`).
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address)
  if (dotted) {
    const bytes = dotted.slice(2).map(Number)
    if (bytes.some((byte) => byte > 255)) return undefined
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16)
    address = `${dotted[1]}${hex(bytes[0]!, bytes[1]!)}:${hex(bytes[2]!, bytes[3]!)}`
  }
  const halves = address.split("::")
  if (halves.length > 2) return undefined
  const parse = (part: string) => (part === "" ? [] : part.split(":"))
  const head = parse(halves[0]!)
  const tail = halves.length === 2 ? parse(halves[1]!) : []
  const given = [...head, ...tail]
  if (given.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined
  const missing = 8 - given.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const zeros = Array.from({ length: missing }, () => "0")
  return [...head, ...zeros, ...tail].map((group) => parseInt(group, 16))
}

/** The client a reported address stands for (see the module's comment). */
export function clientOf(address: string): string {
  // `[::1]` and `fe80::1%eth0`: neither the brackets nor the zone name the client.
  const text = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "")
  if (!text.includes(":")) return text
  const groups = ipv6Groups(text)
  if (!groups) return text
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
  if (mapped) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".")
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`
}
