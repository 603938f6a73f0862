import type { GitHubSession } from '../../github/api.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import type { Clock } from '../../runner/clock.js'
import type { Logger } from '../../runner/logger.js'
import type { CommentState } from '../comment/live-comment.js'
import type { Markers } from '../comment/marker.js'
import type { ChangeSettings, TriggerSettings } from '../settings.js'

/** Everything a change run reads of the inputs. */
export type ChangeRunSettings = TriggerSettings &
  ChangeSettings & { projectId: string; apiKey: string }

/** What a change run is given besides the inputs: the log, the clock, GitHub's session, the markers. */
export interface RunDeps {
  log: Logger
  /** Paces GitHub's retries, and stamps the ledger: the runner's clock. */
  clock: Clock
  /** The run's GitHub connections, closed when it ends. */
  session?: GitHubSession
  saveState: (state: CommentState) => void
  signal?: AbortSignal
  /** Reads a job on the service: is an earlier batch's job still running? */
  readJob: (jobId: string) => Promise<AgentJob>
  /** Signs the markers of the live comments this run writes, and reads only those signed. */
  markers: Markers
  /** An edit of the dashboard with `approval: dashboard`: a tick is judged, then the run catches up. */
  tick?: boolean
}
