import type { GitHubSession } from '../github/session.js'
import { type DocsPullState, type DocsPulls, docsFailure } from '../github/docs-pulls.js'
import { parsePullLink } from '../github/event.js'
import { Input } from './names.js'

/**
 * The run's door to the docs repository (github/docs-pulls.ts) with `docs-token`: the session's
 * one per token, so every flow of a run shares it. A flow that only reads (folding, outcomes, an
 * issue's earlier job) may read a public docs repository with the run's own token when
 * `docs-token` is not set (`orRunToken`): the sentences then name `github-token`, and ask for
 * `docs-token` when GitHub refuses.
 */
export function docsPulls(
  tokens: { docsToken?: string; githubToken?: string },
  apiUrl: string,
  deps: { session: GitHubSession },
  { orRunToken = false }: { orRunToken?: boolean } = {}
): DocsPulls {
  const own = Boolean(tokens.docsToken) || !orRunToken
  return deps.session.docsPulls(
    (own ? tokens.docsToken : tokens.githubToken) ?? '',
    { tokenInput: own ? Input.DocsToken : Input.GithubToken, docsInput: Input.DocsToken },
    apiUrl
  )
}

export type PrState = DocsPullState | { error: string; hint?: string }

/**
 * A docs pull request's state, read with the docs repository's connection; an error says why it
 * could not be read, and what to set when GitHub refused.
 */
export async function docsPrState(
  ctx: { docs: DocsPulls; serverUrl: string },
  link: string
): Promise<PrState> {
  const where = parsePullLink(link, ctx.serverUrl)
  if (!where) return { error: `it is not a pull request on ${ctx.serverUrl}` }
  try {
    return await ctx.docs.state(where)
  } catch (error) {
    const failed = docsFailure(error)
    return { error: failed.why, hint: failed.grant('read') || undefined }
  }
}
