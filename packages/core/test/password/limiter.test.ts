/**
 * The limiter of scrypt derivations: how many run at once, the bounded queue and its refusals,
 * the two lanes (account derivations before sign-ups, the last slot kept from sign-ups), and the
 * defaults. Derivations are tasks the test finishes by hand, so that what runs when is exact; the
 * last test runs real scrypt through it.
 */
import { scrypt } from "node:crypto"
import { afterEach, describe, expect, it } from "vitest"
import {
  defaultHashingLimits,
  HashingBusy,
  HashingLimiter,
  type HashingLimits,
  type HashingPriority,
} from "../../src/password/limiter.js"

/** A derivation the test ends itself, recording when it started and how many ran with it. */
interface Task {
  name: string
  started: boolean
  done: boolean
  finish: () => void
  fail: (error: Error) => void
  result: Promise<string>
}

/** Runs tasks through one limiter, counting the tasks running at once. */
function harness(limits: HashingLimits) {
  const limiter = new HashingLimiter()
  let running = 0
  let most = 0
  const order: string[] = []
  const submit = (name: string, priority: HashingPriority = "account"): Task => {
    const task = { name, started: false, done: false } as Task
    task.result = limiter.run(
      () =>
        new Promise<string>((resolve, reject) => {
          task.started = true
          order.push(name)
          running++
          most = Math.max(most, running)
          task.finish = () => {
            if (task.done) return
            task.done = true
            running--
            resolve(name)
          }
          task.fail = (error) => {
            task.done = true
            running--
            reject(error)
          }
        }),
      { priority, limits },
    )
    // Refusals are asserted where they matter; an unobserved one must not fail the run.
    task.result.catch(() => {})
    return task
  }
  return { limiter, submit, order, most: () => most, running: () => running }
}

/** Lets the limiter's promise callbacks run (a slot frees once its task's promise settles). */
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe("HashingLimiter", () => {
  it("runs at most `concurrency` derivations at once, and every one in the end", async () => {
    const { submit, most, running, limiter } = harness({ concurrency: 3, queue: 20 })
    const tasks = Array.from({ length: 12 }, (_, i) => submit(`t${i}`))
    expect(running()).toBe(3)
    expect(limiter.stats().waiting.account).toBe(9)
    while (tasks.some((task) => !task.started) || running() > 0) {
      for (const task of tasks) if (task.started && task.finish) task.finish()
      await settle()
      expect(running()).toBeLessThanOrEqual(3)
    }
    expect(await Promise.all(tasks.map((task) => task.result))).toHaveLength(12)
    expect(most()).toBe(3)
    expect(limiter.stats()).toMatchObject({ active: 0, started: 12, refused: 0, peak: 3 })
  })

  it("refuses past the queue, before the derivation starts, saying when to come back", async () => {
    const { submit, limiter } = harness({ concurrency: 1, queue: 2 })
    const first = submit("first")
    const queued = [submit("q1"), submit("q2")]
    const refused = submit("refused")
    await expect(refused.result).rejects.toBeInstanceOf(HashingBusy)
    await expect(refused.result).rejects.toMatchObject({ retryAfter: expect.any(Number) })
    const { retryAfter } = (await refused.result.catch(
      (error: HashingBusy) => error,
    )) as HashingBusy
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(refused.started).toBe(false)
    expect(limiter.stats()).toMatchObject({ active: 1, refused: 1 })
    // Room again once one has run.
    first.finish()
    await settle()
    expect(queued[0]!.started).toBe(true)
    const later = submit("later")
    expect(limiter.stats().waiting.account).toBe(2)
    for (const task of [queued[0]!, queued[1]!, later]) {
      await settle()
      task.finish()
    }
    expect(await later.result).toBe("later")
  })

  it("a queue of 0 runs what fits and refuses the rest", async () => {
    const { submit } = harness({ concurrency: 2, queue: 0 })
    const [a, b, c] = [submit("a"), submit("b"), submit("c")]
    expect([a.started, b.started]).toEqual([true, true])
    await expect(c.result).rejects.toBeInstanceOf(HashingBusy)
  })

  it("starts account derivations before sign-ups that waited longer", async () => {
    const { submit, order } = harness({ concurrency: 1, queue: 10 })
    const first = submit("first", "account")
    const signUps = [submit("s1", "anonymous"), submit("s2", "anonymous")]
    const signIns = [submit("a1", "account"), submit("a2", "account")]
    first.finish()
    for (const task of [...signIns, ...signUps]) {
      await settle()
      expect(task.started, task.name).toBe(true)
      task.finish()
    }
    expect(order).toEqual(["first", "a1", "a2", "s1", "s2"])
  })

  it("keeps the last free slot from sign-ups: a sign-in starts at once during a flood", async () => {
    const { submit, limiter } = harness({ concurrency: 2, queue: 10 })
    const flood = Array.from({ length: 5 }, (_, i) => submit(`s${i}`, "anonymous"))
    expect(flood.filter((task) => task.started)).toHaveLength(1)
    const signIn = submit("sign-in", "account")
    expect(signIn.started).toBe(true)
    expect(limiter.stats()).toMatchObject({ active: 2, waiting: { account: 0, anonymous: 4 } })
    // With one slot in all, sign-ups may use it.
    const single = harness({ concurrency: 1, queue: 10 })
    expect(single.submit("alone", "anonymous").started).toBe(true)
  })

  it("at a full queue, a sign-in takes the place of the sign-up that came last", async () => {
    const { submit, limiter, order } = harness({ concurrency: 1, queue: 2 })
    const first = submit("first", "anonymous")
    const s1 = submit("s1", "anonymous")
    const s2 = submit("s2", "anonymous")
    const signIn = submit("sign-in", "account")
    await expect(s2.result).rejects.toBeInstanceOf(HashingBusy)
    expect(s2.started).toBe(false)
    // A sign-up arriving now is refused: the queue is full again.
    await expect(submit("s3", "anonymous").result).rejects.toBeInstanceOf(HashingBusy)
    // Another sign-in pushes out the last sign-up; one more finds none to give way.
    const signIn2 = submit("sign-in 2", "account")
    await expect(s1.result).rejects.toBeInstanceOf(HashingBusy)
    await expect(submit("sign-in 3", "account").result).rejects.toBeInstanceOf(HashingBusy)
    expect(limiter.stats().refused).toBe(4)
    first.finish()
    await settle()
    signIn.finish()
    await settle()
    expect(signIn2.started).toBe(true)
    expect([s1.started, s2.started]).toEqual([false, false])
    expect(order).toEqual(["first", "sign-in", "sign-in 2"])
  })

  it("frees the slot of a derivation that fails, and passes its error on", async () => {
    const { submit } = harness({ concurrency: 1, queue: 1 })
    const failing = submit("failing")
    const next = submit("next")
    failing.fail(new Error("scrypt failed"))
    await expect(failing.result).rejects.toThrow("scrypt failed")
    await settle()
    expect(next.started).toBe(true)
  })

  it("counts every configuration's derivations together, each under its own limits", async () => {
    const limiter = new HashingLimiter()
    const ends: (() => void)[] = []
    const derive = () => new Promise<void>((resolve) => ends.push(resolve))
    const wide = { concurrency: 3, queue: 5 }
    const narrow = { concurrency: 1, queue: 5 }
    void limiter.run(derive, { priority: "account", limits: wide })
    // One runs already: a configuration allowing one at once waits.
    const waiting = limiter.run(derive, { priority: "account", limits: narrow })
    expect(limiter.stats()).toMatchObject({ active: 1, waiting: { account: 1 } })
    ends.shift()!()
    await settle()
    expect(limiter.stats().active).toBe(1)
    ends.shift()!()
    await waiting
  })

  it("bounds real scrypt derivations", async () => {
    const limiter = new HashingLimiter()
    let running = 0
    let most = 0
    const derive = () =>
      new Promise<Buffer>((resolve, reject) => {
        running++
        most = Math.max(most, running)
        scrypt("password", "salt", 32, { N: 2 ** 12, r: 8, p: 1 }, (error, key) => {
          running--
          if (error) reject(error)
          else resolve(key)
        })
      })
    const limits = { concurrency: 2, queue: 16 }
    const keys = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        limiter.run(derive, { priority: i % 2 ? "account" : "anonymous", limits }),
      ),
    )
    expect(keys).toHaveLength(12)
    expect(most).toBeLessThanOrEqual(2)
    expect(limiter.stats()).toMatchObject({ started: 12, refused: 0 })
  })
})

describe("defaultHashingLimits", () => {
  const pool = process.env.UV_THREADPOOL_SIZE
  afterEach(() => {
    if (pool === undefined) delete process.env.UV_THREADPOOL_SIZE
    else process.env.UV_THREADPOOL_SIZE = pool
  })

  it("uses the cores, leaving one of libuv's threads free, and a queue of 32", async () => {
    const { availableParallelism } = await import("node:os")
    delete process.env.UV_THREADPOOL_SIZE
    const limits = defaultHashingLimits()
    expect(limits.queue).toBe(32)
    expect(limits.concurrency).toBe(Math.max(1, Math.min(availableParallelism(), 3)))
    process.env.UV_THREADPOOL_SIZE = "2"
    expect(defaultHashingLimits().concurrency).toBe(1)
    process.env.UV_THREADPOOL_SIZE = "64"
    expect(defaultHashingLimits().concurrency).toBe(availableParallelism())
  })
})
