// Builds every entry with ncc into dist/ (or the folder given as the first argument).
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { transformSync } from 'esbuild'
import { ENTRIES } from './entries.mjs'
import { licenseText } from './licenses.mjs'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const outRoot = path.resolve(root, process.argv[2] ?? 'dist')
const ncc = path.join(root, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')

rmSync(outRoot, { recursive: true, force: true })
for (const entry of ENTRIES) {
  const out = path.join(outRoot, entry.out)
  execFileSync(
    process.execPath,
    [ncc, 'build', path.join(root, entry.source), '-o', out, '--minify', '--quiet'],
    { cwd: root, stdio: 'inherit' }
  )
}
// ncc minifies each entry but not the chunks it splits off for dynamic imports; esbuild does.
for (const entry of ENTRIES) {
  const folder = path.join(outRoot, entry.out)
  for (const file of readdirSync(folder).filter(f => /^\d+\.index\.js$/.test(f))) {
    const code = readFileSync(path.join(folder, file), 'utf8')
    writeFileSync(
      path.join(folder, file),
      transformSync(code, { minify: true, format: 'esm', target: 'node20' }).code
    )
  }
}
// One notice for all bundles: ncc's --license misses what code-split chunks hold.
writeFileSync(path.join(outRoot, 'licenses.txt'), licenseText(root))
