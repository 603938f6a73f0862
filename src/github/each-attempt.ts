import type { Octokit } from '@octokit/core'

/**
 * A request whose parameters are made as each attempt is sent: `request[EACH_ATTEMPT]`, a function
 * returning them. The retry plugin and the rate limits send a request again with the parameters it
 * was first made with, seconds or a minute later; a body that says when it was written (the
 * dashboard's state) is made again for each attempt instead, so that it says when it reached GitHub.
 */
export const EACH_ATTEMPT = 'eachAttempt'

/**
 * The plugin: registered before every other (limits.ts), so that it runs inside them, once for
 * each attempt they send.
 */
export function eachAttempt(octokit: Pick<Octokit, 'hook'>): void {
  octokit.hook.wrap('request', async (request, options) => {
    const make = (options.request as Record<string, unknown> | undefined)?.[EACH_ATTEMPT]
    if (typeof make === 'function') Object.assign(options, make() as object)
    return request(options)
  })
}
