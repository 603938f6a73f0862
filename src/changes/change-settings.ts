import type { FlowDeps } from '../agent/prepared-run.js'
import type { ChangeSettings, TriggerSettings } from '../agent/settings.js'

/** Everything a change run reads of the inputs. */
export type ChangeRunSettings = TriggerSettings &
  ChangeSettings & { projectId: string; apiKey: string }

/** What a change run is given besides the inputs: every flow's, and whether the run is a tick. */
export interface RunDeps extends FlowDeps {
  /** An edit of the dashboard with `approval: dashboard`: a tick is judged, then the run catches up. */
  tick?: boolean
}
