/**
 * A TCP proxy in front of the test server whose open connections can be frozen: their bytes stop
 * flowing both ways while the sockets stay open, as when a NAT or a firewall forgets a
 * connection. Nothing is closed, so nobody is told: only a heartbeat can notice. Connections
 * opened after `freeze()` flow normally.
 */
import { connect, createServer, type Server, type Socket } from "node:net"

export interface FreezableProxy {
  port: number
  /** Stops every open connection's traffic, without closing it. */
  freeze(): void
  close(): Promise<void>
}

export async function startProxy(target: { host: string; port: number }): Promise<FreezableProxy> {
  const pairs = new Set<[Socket, Socket]>()
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host)
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    sockets.add(client).add(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    const end = () => {
      pairs.delete(pair)
      sockets.delete(client)
      sockets.delete(upstream)
      client.destroy()
      upstream.destroy()
    }
    client.on("error", end).on("close", end)
    upstream.on("error", end).on("close", end)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as { port: number }).port,
    freeze() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        client.pause()
        upstream.pause()
      }
      pairs.clear() // frozen ones stay as they are until `close`
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
