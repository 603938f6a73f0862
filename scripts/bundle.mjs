// Builds every entry with esbuild into dist/ (or the folder given as the first argument): the
// entries, and in dist/chunks/ the code they share or load lazily (Octokit, the toolkit's undici).
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { ENTRIES } from './entries.mjs'
import { BASE_OPTIONS, pureModules } from './esbuild-options.mjs'
import { licenseText } from './licenses.mjs'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const outRoot = path.resolve(root, process.argv[2] ?? 'dist')

rmSync(outRoot, { recursive: true, force: true })
await build({
  ...BASE_OPTIONS,
  absWorkingDir: root,
  entryPoints: ENTRIES.map(e => ({ in: e.source, out: e.out.replace(/\.js$/, '') })),
  outdir: outRoot,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [pureModules]
})
// The bundles are ESM; this keeps them so wherever dist/ is copied.
writeFileSync(path.join(outRoot, 'package.json'), '{\n  "type": "module"\n}\n')
writeFileSync(path.join(outRoot, 'licenses.txt'), licenseText(root))
