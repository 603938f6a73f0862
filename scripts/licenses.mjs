// The licences of every package the bundles may hold: the production dependency tree, read from
// node_modules: one file for every bundle and chunk.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'

const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i

function resolvePackage(name, fromDir, root) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name)
    if (existsSync(path.join(candidate, 'package.json'))) return candidate
    if (dir === root || dir === path.dirname(dir)) return undefined
  }
}

export function licenseText(root) {
  const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const seen = new Map()
  const queue = Object.keys(rootPkg.dependencies ?? {}).map(name => [name, root])
  while (queue.length) {
    const [name, from] = queue.shift()
    const dir = resolvePackage(name, from, root)
    if (!dir || seen.has(dir)) continue
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
    seen.set(dir, pkg)
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push([dep, dir])
  }
  const entries = [...seen.entries()]
    .map(([dir, pkg]) => {
      const file = readdirSync(dir).find(f => LICENSE_FILE.test(f))
      const text = file
        ? readFileSync(path.join(dir, file), 'utf8').trim()
        : `License: ${pkg.license ?? 'unknown'}`
      return { id: `${pkg.name}@${pkg.version}`, text }
    })
    .sort((a, b) => (a.id < b.id ? -1 : 1))
  const unique = [...new Map(entries.map(e => [e.id, e])).values()]
  return unique.map(e => `${e.id}\n${e.text}\n`).join('\n')
}
