import { type GitHubApi, type RepoFile, describeGitHubError, refusedAccess } from '../github/api.js'
import { ExplainedError } from '../runner/errors.js'
import { CONFIG_INPUT } from './actions.js'
import { MAX_POLICY_BYTES } from './choices.js'
import { type Policy, defaultPolicy } from './policy.js'
import { PolicyError } from './problems.js'
import type { ReadOptions } from './read.js'

/** Where the policy file is when the workflow names none. */
export const DEFAULT_POLICY_PATH = '.github/docs-agent.yml'
/** The JSON Schema of the file, for editors (`# yaml-language-server: $schema=…`). */
export const POLICY_SCHEMA_URL =
  'https://raw.githubusercontent.com/mintlify/agent-action/v2/schema/docs-agent.schema.json'

/**
 * What reading the file from the default branch found, as the action's GitHub client tells it:
 * its text; no such file; or a token that may not read it (403, or 404 on a repository it cannot
 * see). A path that is a folder, or a file too large to be a policy (`MAX_POLICY_BYTES`), is
 * `not-a-file` with why, in words.
 */
export type PolicyFileRead =
  | { kind: 'file'; text: string }
  | { kind: 'missing' }
  | { kind: 'refused' }
  | { kind: 'not-a-file'; why: string }

/** Reads a path of the workflow's repository, on its default branch (the contents API). */
export type PolicyReader = (path: string) => Promise<PolicyFileRead>

/**
 * The reader of `repository`'s policy file every action gives `loadPolicy`: GitHub's contents API
 * on the default branch (no checkout). A read GitHub refuses is `refused`, to name the permission;
 * any other failure names the file and GitHub's answer.
 */
export function repositoryPolicyReader(
  github: Pick<GitHubApi, 'fileText'>,
  repository: string
): PolicyReader {
  return async path => {
    let file: RepoFile
    try {
      file = await github.fileText(path, MAX_POLICY_BYTES)
    } catch (error) {
      if (refusedAccess(error)) return { kind: 'refused' }
      throw new ExplainedError(
        `Could not read the policy file ${path} of ${repository} (${describeGitHubError(error)}). Run the workflow again later.`
      )
    }
    if (typeof file === 'string') return { kind: 'file', text: file }
    if (file.problem === 'missing') return { kind: 'missing' }
    return { kind: 'not-a-file', why: `it is larger than ${MAX_POLICY_BYTES / 1024} KB` }
  }
}

export interface PolicySource extends ReadOptions {
  /** The `config` input, as given; empty: the default path. */
  config: string
  read: PolicyReader
}

/** A path in the repository: relative, no `..`, no backslash; what the contents API takes. */
const REPOSITORY_PATH = /^(?!\/)(?!.*(?:^|\/)\.{1,2}(?:\/|$))[^\\\0\r\n]{1,255}$/

/** The path the `config` input names, and whether it named one: a missing named file is an error. */
export function policyPath(config: string): { path: string; explicit: boolean } {
  const path = config.trim()
  if (!path) return { path: DEFAULT_POLICY_PATH, explicit: false }
  if (!REPOSITORY_PATH.test(path) || path.endsWith('/'))
    throw new PolicyError(path.slice(0, 255), [
      {
        message: `is not a file path in the repository: input '${CONFIG_INPUT}' takes a path from the repository's root, such as ${DEFAULT_POLICY_PATH}.`
      }
    ])
  return { path, explicit: true }
}

/**
 * The policy of the workflow's repository: its file read from the default branch, or the built-in
 * defaults when there is no file at the default path. A file the workflow named that is not there,
 * a read the token is refused, and every problem of the file are PolicyErrors naming the file.
 */
export async function loadPolicy(source: PolicySource): Promise<Policy> {
  const { path, explicit } = policyPath(source.config)
  const found = await source.read(path)
  switch (found.kind) {
    case 'file': {
      // The parser and the schema load only when there is a file to read.
      const { readPolicy } = await import('./read.js')
      return readPolicy(found.text, path, source)
    }
    case 'missing':
      if (!explicit) return defaultPolicy()
      throw new PolicyError(path, [
        {
          message: `input '${CONFIG_INPUT}' names this file, but the default branch has none. Commit it there (a file in a pull request counts once merged), or fix the path.`
        }
      ])
    case 'refused':
      throw new PolicyError(path, [
        {
          message: `github-token may not read this file. Give the job 'contents: read' (permissions: contents: read) so the action can read its policy from the default branch.`
        }
      ])
    case 'not-a-file':
      throw new PolicyError(path, [{ message: `${found.why}: the policy must be one YAML file.` }])
  }
}
