import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { GitHubRequest } from '../simulator/fake-github.js'
import { openApiBackend, operationMatcher } from './openapi.js'
import { perWorker } from './per-worker.js'
import { ROOT } from './run-action.js'

/** GitHub's published OpenAPI description of api.github.com (the @octokit/openapi package). */
export const GITHUB_OPENAPI = path.join(
  ROOT,
  'node_modules',
  '@octokit',
  'openapi',
  'generated',
  'api.github.com.json'
)

/** Every operation the action calls, as method and documented path. */
export const GITHUB_OPERATIONS: readonly [string, string][] = [
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['get', '/repos/{owner}/{repo}/collaborators/{username}/permission'],
  ['get', '/repos/{owner}/{repo}/issues/comments'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/files'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['patch', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'],
  ['get', '/repos/{owner}/{repo}/compare/{basehead}'],
  ['get', '/repos/{owner}/{repo}/commits/{ref}'],
  ['get', '/repos/{owner}/{repo}/commits/{commit_sha}/pulls'],
  ['get', '/repos/{owner}/{repo}/issues'],
  ['post', '/repos/{owner}/{repo}/issues'],
  ['patch', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments'],
  ['get', '/repos/{owner}/{repo}/contents/{path}'],
  ['get', '/repos/{owner}/{repo}/git/trees/{tree_sha}'],
  // Not the action's: what a code repository's workflow sends (examples/code-repository-dispatch.yml).
  ['post', '/repos/{owner}/{repo}/dispatches']
]

/**
 * GraphQL has no REST operation: the fake executes each query against GitHub's published GraphQL
 * schema (test/simulator/fake-github-graphql.ts), which refuses what GitHub would.
 */
const isGraphQL = (call: GitHubRequest, prefix: string): boolean =>
  call.method === 'POST' && /\/graphql$/.test(call.path.slice(prefix.replace(/\/v3$/, '').length))

type Json = Record<string, unknown>

/**
 * Only the operations above and the components they reach: the full description is 13 MB, and the
 * validator compiles what it is given. Responses are checked without their `required` lists: the
 * fake answers with the fields the action reads, not the hundred others GitHub sends, and every
 * field it does send must have GitHub's name and type.
 */
function trimmed(): Json {
  const full = JSON.parse(readFileSync(GITHUB_OPENAPI, 'utf8')) as Json
  const paths: Record<string, Json> = {}
  for (const [method, p] of GITHUB_OPERATIONS) {
    const op = (full.paths as Record<string, Json>)[p]?.[method] as Json | undefined
    if (!op) throw new Error(`GitHub's OpenAPI description has no ${method} ${p}`)
    const checked = fixNullable(op) as Json
    paths[p] = { ...paths[p], [method]: { ...checked, responses: relaxed(op.responses) } }
  }
  const components: Record<string, Json> = {}
  const pending = [JSON.stringify(paths)]
  const seen = new Set<string>()
  while (pending.length) {
    for (const m of (pending.pop() as string).matchAll(/"#\/components\/(\w+)\/([^"]+)"/g)) {
      const [kind, name] = [m[1] as string, m[2] as string]
      if (seen.has(`${kind}/${name}`)) continue
      seen.add(`${kind}/${name}`)
      const value = ((full.components as Record<string, Json>)[kind] as Json)[name]
      const kept = kind === 'schemas' || kind === 'responses' ? relaxed(value) : fixNullable(value)
      ;(components[kind] ??= {})[name] = kept
      pending.push(JSON.stringify(kept))
    }
  }
  return { openapi: full.openapi, info: full.info, paths, components }
}

/**
 * A copy the validator takes: OpenAPI 3.0's `nullable` beside no `type` (which it refuses) becomes
 * `anyOf` the schema or null when true and is dropped when false; `x-github-breaking-changes` notes
 * are no schema. `relaxed` also drops `required` lists (arrays), so a partial object still checks
 * every field it has.
 */
function validatorCopy(value: unknown, relaxed: boolean): unknown {
  if (Array.isArray(value)) return value.map(v => validatorCopy(v, relaxed))
  if (!value || typeof value !== 'object') return value
  const copy = Object.fromEntries(
    Object.entries(value)
      .filter(
        ([k, v]) =>
          k !== 'x-github-breaking-changes' && !(relaxed && k === 'required' && Array.isArray(v))
      )
      .map(([k, v]) => [k, validatorCopy(v, relaxed)])
  ) as Json
  if (copy.nullable !== undefined && copy.type === undefined) {
    const { nullable, description, ...rest } = copy
    return nullable === true
      ? { description, anyOf: [rest, { type: 'null' }] }
      : { description, ...rest }
  }
  return copy
}

const relaxed = (value: unknown): unknown => validatorCopy(value, true)
const fixNullable = (value: unknown): unknown => validatorCopy(value, false)

export interface GitHubValidator {
  /** Problems with one recorded call; empty when request and answer match GitHub's description. */
  problems(call: GitHubRequest, prefix?: string): string[]
}

export async function gitHubValidator(): Promise<GitHubValidator> {
  // Once per worker: reading the 13 MB description and compiling takes a second or two.
  const api = await perWorker('github-openapi', () => openApiBackend(trimmed()))
  const match = operationMatcher(api)
  return {
    problems(call, prefix = '') {
      if (isGraphQL(call, prefix))
        return (
          (call.responseBody as { errors?: { message: string }[] } | undefined)?.errors?.map(
            e => `GraphQL: ${e.message}`
          ) ?? []
        )
      const request = {
        method: call.method.toLowerCase(),
        // Where GitHub redirects a renamed repository's old name (docs.github.com, "HTTP
        // redirects"): the repository by its number, answering as /repos/{owner}/{repo} does.
        path: call.path
          .slice(prefix.length)
          .replace(/^\/repositories\/\d+\//, '/repos/owner/repo/'),
        query: call.query,
        headers: { 'content-type': 'application/json' },
        body: call.body
      }
      const operation = match(request)
      if (!operation) return [`no documented operation for ${call.method} ${call.path}`]
      const problems: string[] = []
      for (const e of api.validateRequest(request, operation).errors ?? [])
        problems.push(`request ${e.instancePath || ''} ${e.message}`)
      // A raw answer is the file's bytes, which GitHub's description has no schema for (it lists
      // only the JSON and object media types of the contents route: rest-api-description#6089).
      const raw =
        call.status === 200 && /application\/vnd\.github(?:\.v3)?\.raw/.test(call.accept ?? '')
      if (!raw && call.status !== undefined && operation.responses?.[String(call.status)]) {
        const res = api.validateResponse(call.responseBody, operation, call.status)
        for (const e of res.errors ?? [])
          problems.push(`response ${call.status} ${e.instancePath || ''} ${e.message}`)
      }
      return problems
    }
  }
}
