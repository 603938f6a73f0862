import { Octokit } from '@octokit/core'
import { paginateRest } from '@octokit/plugin-paginate-rest'
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods'

/**
 * The Octokit that @actions/github builds (same plugins), minus the toolkit's proxy-aware fetch:
 * importing @actions/github loads undici at once, about 1.5× bare Node's start-up (bench/results.md).
 */
export const DirectOctokit = Octokit.plugin(restEndpointMethods, paginateRest)
