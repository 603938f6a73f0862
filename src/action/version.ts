/** Sent in the User-Agent; a test keeps it equal to package.json's version. */
export const ACTION_VERSION = '1.0.0'
export const USER_AGENT = `mintlify-agent-action/${ACTION_VERSION}`
