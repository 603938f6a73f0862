/** Where people see a project's agent jobs, each with what the agent did and why it stopped. */
export const DASHBOARD_URL = 'https://dashboard.mintlify.com'

/** Where to look for a job, in plain text for logs and error messages. */
export const jobsOnDashboard = (projectId: string): string =>
  `the agent jobs of project ${projectId} on the Mintlify dashboard (${DASHBOARD_URL})`
