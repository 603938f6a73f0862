// How dist/ is built, shared by the bundle script and the bench's reference bundle.

/** Every bundle and chunk: ESM for node24 runners (and the Node 20 the project builds on). */
export const BASE_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  // dist/licenses.txt holds every notice; legal comments in the code would repeat them.
  legalComments: 'none',
  // Bundled CommonJS packages call require() for Node's built-ins; ESM has none of its own.
  banner: {
    js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);"
  },
  logLevel: 'warning'
}

/**
 * @actions/core imports its OIDC client (getIDToken) at load, and with it @actions/http-client and
 * undici: about 1.5× bare Node's start-up time in every run (bench/results.md), for a feature this
 * action never calls. The module only defines a class, so declaring it free of side effects is true
 * and lets esbuild drop it while getIDToken is unused; if code ever calls getIDToken, it is kept.
 */
export const pureModules = {
  name: 'pure-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\/oidc-utils\.js$/ }, async args => {
      if (args.pluginData === 'pure' || !/@actions[\\/]core[\\/]/.test(args.importer)) return
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'pure'
      })
      if (resolved.errors.length) return { errors: resolved.errors }
      return { path: resolved.path, sideEffects: false }
    })
  }
}
