import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_POLICY_PATH,
  type PolicyFileRead,
  loadPolicy,
  policyPath
} from '../../src/policy/load.js'
import { PolicyError } from '../../src/policy/problems.js'
import { ROOT } from '../support/run-action.js'

/** A repository's default branch as the reader sees it: its files, and paths it may not read. */
function repository(files: Record<string, PolicyFileRead>) {
  const asked: string[] = []
  const read = async (p: string): Promise<PolicyFileRead> => {
    asked.push(p)
    return files[p] ?? { kind: 'missing' }
  }
  return { read, asked }
}

const load = (config: string, files: Record<string, PolicyFileRead>) => {
  const repo = repository(files)
  return { repo, policy: loadPolicy({ config, read: repo.read, repository: 'acme/docs' }) }
}

describe('loading the policy file from the workflow’s repository', () => {
  it('reads .github/docs-agent.yml when config is empty', async () => {
    const { repo, policy } = load('  ', {
      [DEFAULT_POLICY_PATH]: { kind: 'file', text: 'extends: cautious\n' }
    })
    expect(await policy).toMatchObject({ file: DEFAULT_POLICY_PATH, preset: 'cautious' })
    expect(repo.asked).toEqual([DEFAULT_POLICY_PATH])
  })

  it('is the built-in defaults when there is no file at the default path', async () => {
    const policy = await load('', {}).policy
    expect(policy.file).toBeUndefined()
    expect(policy).toMatchObject({ skipLabel: 'no-docs', approval: 'none', dashboard: true })
  })

  it('reads the path config names, and refuses it when the default branch has no such file', async () => {
    const named = load('ci/agent.yml', { 'ci/agent.yml': { kind: 'file', text: 'max-open: 2\n' } })
    expect(await named.policy).toMatchObject({ file: 'ci/agent.yml', maxOpen: 2 })
    await expect(load('ci/agent.yml', {}).policy).rejects.toThrow(
      "ci/agent.yml: input 'config' names this file, but the default branch has none. Commit it there (a file in a pull request counts once merged), or fix the path."
    )
    // Named explicitly, the default path is no exception.
    await expect(load(DEFAULT_POLICY_PATH, {}).policy).rejects.toThrow(PolicyError)
  })

  it('names contents: read when the token may not read the file', async () => {
    const { policy } = load('', { [DEFAULT_POLICY_PATH]: { kind: 'refused' } })
    await expect(policy).rejects.toThrow(
      `${DEFAULT_POLICY_PATH}: github-token may not read this file. Give the job 'contents: read' (permissions: contents: read) so the action can read its policy from the default branch.`
    )
  })

  it('refuses a folder, or what the reader found too large, with its reason', async () => {
    const { policy } = load('docs', { docs: { kind: 'not-a-file', why: 'is a folder' } })
    await expect(policy).rejects.toThrow('docs: is a folder: the policy must be one YAML file.')
  })

  it('passes the file’s problems on with its path, and the workflow’s repository to check', async () => {
    const { policy } = load('', {
      [DEFAULT_POLICY_PATH]: { kind: 'file', text: 'code-repositories: [acme/api, Acme/Docs]\n' }
    })
    await expect(policy).rejects.toThrow(
      /^\.github\/docs-agent\.yml:1:31: code-repositories\[1\]: Acme\/Docs is the repository this workflow runs in/
    )
  })

  it('refuses a config path that is not a file in the repository', () => {
    expect(policyPath('ci/policy.yml')).toEqual({ path: 'ci/policy.yml', explicit: true })
    for (const wrong of ['/etc/passwd', '../other/policy.yml', 'a/../b.yml', 'docs/', 'a\\b.yml'])
      expect(() => policyPath(wrong), wrong).toThrow(
        /is not a file path in the repository: input 'config' takes a path from the repository's root, such as \.github\/docs-agent\.yml\./
      )
  })
})

describe('a run without a policy file', () => {
  /** The modules a file loads when it is imported: static imports that are not `import type`. */
  function loaded(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen
    seen.add(file)
    if (!file.startsWith('src/')) return seen
    const text = readFileSync(path.join(ROOT, file), 'utf8')
    for (const m of text.matchAll(/^import (?!type )[^'"]*?from '([^']+)'/gm)) {
      const spec = m[1] as string
      const target = spec.startsWith('.')
        ? path.posix.join(path.posix.dirname(file), spec).replace(/\.js$/, '.ts')
        : spec
      loaded(target, seen)
    }
    return seen
  }

  it('loads no YAML parser and no validator: only a file to read needs them', () => {
    const modules = loaded('src/policy/load.ts')
    expect(modules).toContain('src/policy/policy.ts')
    expect(modules).toContain('src/policy/presets.ts')
    expect(
      [...modules].filter(m => ['yaml', 'valibot', 'src/policy/schema.ts'].includes(m))
    ).toEqual([])
  })
})
