// `npm run bench`: installs, builds, runs the benchmarks and writes bench/README.md.
import { install, run } from "./lib.mjs"

install()
run("pnpm", ["run", "build"])
run("pnpm", ["--filter", "latch-bench", "run", "bench"])
