import adapter from "@sveltejs/adapter-node"

/** A minimal app for the client tests: built once by test/client.test.ts. */
export default {
  kit: {
    adapter: adapter({ out: "build" }),
  },
}
