import type { GitHubSession } from '../github/session.js'
import type { DocsPulls } from '../github/docs-pulls.js'
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
