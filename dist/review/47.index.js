export const id = 47;
export const ids = [47];
export const modules = {

/***/ 7047:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  readPolicy: () => (/* binding */ readPolicy)
});

// EXTERNAL MODULE: ./node_modules/valibot/dist/index.mjs
var dist = __webpack_require__(7934);
// EXTERNAL MODULE: ./.tmp/ncc-js/runner/text.js
var runner_text = __webpack_require__(3492);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/code-repositories.js
var code_repositories = __webpack_require__(523);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/policy.js
var policy = __webpack_require__(1281);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/actions.js
var policy_actions = __webpack_require__(1012);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/problems.js
var policy_problems = __webpack_require__(1975);
// EXTERNAL MODULE: ./.tmp/ncc-js/runner/duration.js
var duration = __webpack_require__(8703);
// EXTERNAL MODULE: ./.tmp/ncc-js/records/ledger/starts.js
var starts = __webpack_require__(1554);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/budget.js
var budget = __webpack_require__(5998);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/choices.js
var choices = __webpack_require__(7899);
// EXTERNAL MODULE: ./.tmp/ncc-js/policy/path-filter.js
var path_filter = __webpack_require__(5403);
;// CONCATENATED MODULE: ./.tmp/ncc-js/policy/schema.js







/**
 * The policy file's keys (`.github/docs-agent.yml`), one schema for the action and for editors
 * (`npm run schema` writes its JSON Schema): each key with its form (`title`), what it does
 * (`description`), an example, its constraints and the message that says what is wrong. The schema
 * takes the file as written; defaults and presets are data (presets.ts), the typed values for the
 * flows come after (policy.ts).
 */
/** The longest standing instruction: it is sent before every request. */
const MAX_INSTRUCTIONS = 8192;
/** `expire-after`'s range. */
const EXPIRE_AFTER_MS = { min: duration/* HOUR_MS */.iQ, max: 365 * duration/* DAY_MS */.sO };
/** `since`'s range: GitHub lists 100 merged pull requests a page, a quarter is plenty. */
const SINCE_MS = { min: duration/* HOUR_MS */.iQ, max: 90 * duration/* DAY_MS */.sO };
/** A duration as `parseDuration` reads it, in lower case as the file writes it. */
const DURATION_PATTERN = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/;
/** A key of the file: optional, with what people read about it. */
const key = (schema, info) => dist/* optional */.lqM(dist/* pipe */.FsL(schema, dist/* title */.DDF(info.form), dist/* description */.h_(info.description), dist/* metadata */.yuE({ examples: [info.example] })));
const label = (what) => dist/* pipe */.FsL(dist/* string */.YjP(`must be ${what}`), dist/* minLength */.BpQ(1, `must be ${what}`), dist/* maxLength */.Ru6(50, 'must be at most 50 characters (GitHub’s longest label name)'), dist/* regex */.yGV(/^\S(?:[^\r\n]*\S)?$/, 'must be one line with no space at either end'));
/** A duration within its range, as `parseDuration` reads it: `example` is the one its messages give. */
const schema_duration = (range, example, rangeText) => dist/* pipe */.FsL(dist/* string */.YjP(`must be a duration such as ${example}`), dist/* regex */.yGV(DURATION_PATTERN, `must be a duration such as ${example}, 2w or 36h`), dist/* check */.z6Y(text => {
    const ms = (0,duration/* parseDuration */.E9)(text) ?? 0;
    return ms >= range.min && ms <= range.max;
}, `must be from ${rangeText}`));
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/;
const glob = dist/* pipe */.FsL(dist/* string */.YjP('must be a glob such as src/** (text, quoted when it starts with ! or *)'), dist/* minLength */.BpQ(1, 'must be a glob such as src/**, not empty'), dist/* maxLength */.Ru6(500, 'must be a glob of at most 500 characters'), dist/* check */.z6Y(path_filter/* isGlob */.fg, 'is not a glob picomatch can read (an unclosed [ or ( ?)'));
const globs = (what) => dist/* pipe */.FsL(dist/* array */.YOg(glob, `must be a YAML list of globs${what}`), dist/* maxLength */.Ru6(path_filter/* MAX_PATTERNS */.nP, `must list at most ${path_filter/* MAX_PATTERNS */.nP} globs`));
const repository = dist/* pipe */.FsL(dist/* string */.YjP('must be a repository as owner/repo'), dist/* regex */.yGV(code_repositories/* REPOSITORY_PATTERN */.G_, 'must be a repository as owner/repo, such as acme/api'));
const codeRepository = dist/* union */.KCZ([
    repository,
    dist/* strictObject */.rej({
        repository,
        paths: dist/* optional */.lqM(globs(' for this repository')),
        'paths-ignore': dist/* optional */.lqM(globs(' this repository ignores'))
    }, 'must be owner/repo or a mapping of repository, paths and paths-ignore')
], 'must be owner/repo, or a mapping of repository with its own paths and paths-ignore');
const wholeNumber = (min, max) => dist/* pipe */.FsL(dist/* number */.aig(`must be a whole number from ${min} to ${max}`), dist/* integer */.ndf(`must be a whole number from ${min} to ${max}`), dist/* minValue */.Wwf(min, `must be a whole number from ${min} to ${max}`), dist/* maxValue */.cGV(max, `must be a whole number from ${min} to ${max}`));
const choice = (choices) => dist/* picklist */.KIO(choices, `must be one of ${choices.join(', ')}`);
const schema_boolean = dist/* boolean */.zMY('must be true or false');
const MAX_JOBS_MESSAGE = `must be N/day, N/week or N/month with N a whole number from 1 to ${starts/* MAX_STARTS */.NV}`;
/** A time of day, 24-hour: `07:00`, `22:30`. */
const clockTime = dist/* pipe */.FsL(dist/* string */.YjP('must be a time such as 07:00'), dist/* regex */.yGV(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day such as 07:00 or 22:30'));
/** The first item a list holds twice. */
const twice = (items) => items.find((item, i) => items.indexOf(item) !== i);
/** A time zone the runtime knows (IANA names, UTC). */
function isTimeZone(name) {
    try {
        new Intl.DateTimeFormat('en-US', { timeZone: name });
        return true;
    }
    catch {
        return false;
    }
}
const POLICY_SCHEMA = dist/* pipe */.FsL(dist/* strictObject */.rej({
    version: key(dist/* literal */.euz(choices/* POLICY_VERSION */.Ky, issue => 
    // "1" in quotes is YAML's text, not the number.
    typeof issue.input === 'string'
        ? `must be the number ${choices/* POLICY_VERSION */.Ky}, without quotes`
        : `must be the number ${choices/* POLICY_VERSION */.Ky}`), {
        form: `${choices/* POLICY_VERSION */.Ky}`,
        description: 'The format of this file. A file written for a newer action (a higher version) is refused rather than half read.',
        example: choices/* POLICY_VERSION */.Ky
    }),
    extends: key(choice(choices/* PRESET_NAMES */.dO), {
        form: choices/* PRESET_NAMES */.dO.join(' | '),
        description: 'A preset the file starts from: cautious (changes wait for a tick on the dashboard, one docs pull request open at a time, 20 jobs a month), standard (one open docs pull request, 9,000 credits a month) or autopilot (three open, 10,000 credits a month). A key written in this file overrides the preset’s value.',
        example: 'standard'
    }),
    'required-permission': key(choice(choices/* PERMISSION_CHOICES */.rv), {
        form: choices/* PERMISSION_CHOICES */.rv.join(' | '),
        description: 'The least permission on the repository the person who triggers a run needs (adding the label, a comment, a tick on the dashboard); none turns the check off.',
        example: 'write'
    }),
    'allowed-bots': key(dist/* pipe */.FsL(dist/* array */.YOg(dist/* pipe */.FsL(dist/* string */.YjP('must be a bot’s login such as renovate'), dist/* maxLength */.Ru6(100, 'must be a login of at most 100 characters'), dist/* regex */.yGV(LOGIN, 'must be a login such as renovate or renovate[bot]')), 'must be a YAML list of logins'), dist/* maxLength */.Ru6(100, 'must list at most 100 logins')), {
        form: 'list of logins (renovate or renovate[bot])',
        description: 'Bots allowed to trigger a run, or to author a merged pull request that starts one; other bots are refused.',
        example: ['renovate', 'dependabot[bot]']
    }),
    instructions: key(dist/* pipe */.FsL(dist/* string */.YjP('must be text'), dist/* regex */.yGV(/\S/, 'must be text, not blank'), dist/* maxLength */.Ru6(MAX_INSTRUCTIONS, `must be at most ${MAX_INSTRUCTIONS} characters`)), {
        form: `text, at most ${MAX_INSTRUCTIONS} characters`,
        description: 'A standing instruction sent before every request the actions build (a new job, a follow-up, a change’s prompt): the docs’ voice, what to leave alone.',
        example: 'Write in the second person. Never edit the changelog pages.'
    }),
    paths: key(globs(''), {
        form: 'list of globs (! takes one back)',
        description: 'A pull request or commit that changes no matching file is skipped, as on.push.paths reads them: * within a folder, ** across folders, a ! pattern takes back what an earlier one matched, the last match decides. Quote a glob that starts with ! or *. Empty: every file counts.',
        example: ['src/**', '!src/**/*.test.ts']
    }),
    'paths-ignore': key(globs(''), {
        form: 'list of globs',
        description: 'Changed files that match do not count, and are left out of the prompt’s list of files.',
        example: ['**/*.snap', 'src/generated/**']
    }),
    'skip-label': key(label('a label name of 1 to 50 characters'), {
        form: 'label name',
        description: 'Pull requests carrying this label are not documented.',
        example: 'no-docs'
    }),
    'include-diff': key(schema_boolean, {
        form: 'true | false',
        description: 'Add an excerpt of the patches to the prompt (a change’s description stays under 32,000 bytes).',
        example: true
    }),
    fold: key(choice(choices/* FOLD_MODES */.NA), {
        form: choices/* FOLD_MODES */.NA.join(' | '),
        description: 'open-pr sends a change as a follow-up to the job whose docs pull request is still open (or still running) instead of starting a new job; never starts a new job for every change.',
        example: 'open-pr'
    }),
    'code-repositories': key(dist/* pipe */.FsL(dist/* array */.YOg(codeRepository, 'must be a YAML list of repositories'), dist/* maxLength */.Ru6(code_repositories/* MAX_CODE_REPOSITORIES */.oZ, `must list at most ${code_repositories/* MAX_CODE_REPOSITORIES */.oZ} repositories per docs project`)), {
        form: `list of owner/repo or {repository, paths, paths-ignore} (at most ${code_repositories/* MAX_CODE_REPOSITORIES */.oZ})`,
        description: 'In a docs repository: the code repositories this docs project documents, each from its own watermark in the dashboard’s ledger (needs dashboard: true). A repository with its own paths or paths-ignore uses those; the others use the file’s. Empty: this repository’s own changes.',
        example: ['acme/cli', { repository: 'acme/api', paths: ['src/**', '!**/*.test.ts'] }]
    }),
    since: key(schema_duration(SINCE_MS, '30d', '1h to 90d'), {
        form: 'duration, 1h–90d (30d)',
        description: 'With code-repositories: a code repository the dashboard has no last documented commit for (a first install, a repository just added) is read from this far back, so a dry run previews what the window’s merges would produce. Without it, its newest commit is recorded and its next merge is the first documented.',
        example: '30d'
    }),
    dashboard: key(schema_boolean, {
        form: 'true | false',
        description: 'Keep the ledger in the dashboard issue: each change run documents everything since the last documented commit and folds into the open docs pull request (needs issues: write). false: no ledger, no folding; every change is its own job. Refused with max-jobs, max-credits, max-open or expire-after, which only the ledger holds (every preset sets one).',
        example: true
    }),
    'dashboard-title': key(dist/* pipe */.FsL(dist/* string */.YjP('must be a title of 1 to 256 characters'), dist/* regex */.yGV(/^[^\r\n]*\S[^\r\n]*$/, 'must be a title on one line, not blank'), dist/* maxLength */.Ru6(256, 'must be a title of at most 256 characters')), {
        form: 'title (1–256 characters)',
        description: 'The title of the dashboard issue, when it is created.',
        example: 'Docs agent dashboard'
    }),
    approval: key(choice(choices/* APPROVAL_MODES */.lU), {
        form: choices/* APPROVAL_MODES */.lU.join(' | '),
        description: 'dashboard: changes start nothing; they wait on the dashboard in one batch with a checkbox and what a run would cost, and a tick by someone with required-permission starts them once (needs dashboard: true). A tick lifts quiet-hours, not max-jobs, max-credits or max-open: a ticked batch they hold waits, still approved, changes merged meanwhile join it without another tick, and the first run with room starts it.',
        example: 'dashboard'
    }),
    'max-jobs': key(dist/* pipe */.FsL(dist/* string */.YjP('must be a count per window such as 20/month'), dist/* regex */.yGV(budget/* MAX_JOBS_PATTERN */.Ho, issue => Number(/^(\d+)\//.exec(String(issue.input))?.[1]) > starts/* MAX_STARTS */.NV
        ? `${MAX_JOBS_MESSAGE}: the dashboard's ledger keeps the newest ${starts/* MAX_STARTS */.NV} starts, so a higher count would never hold`
        : MAX_JOBS_MESSAGE)), {
        form: `N/day | N/week | N/month (N 1–${starts/* MAX_STARTS */.NV}; a month is 30 days)`,
        description: 'Jobs and follow-ups the agent may start in a rolling window; beyond it, changes wait on the dashboard until a place frees (needs dashboard: true).',
        example: '20/month'
    }),
    'max-credits': key(wholeNumber(1, 1_000_000), {
        form: 'whole number (1–1,000,000)',
        description: `Estimated credits the agent may spend in a rolling 30 days: each job or follow-up counts credits-per-run. Beyond it, changes wait on the dashboard (needs dashboard: true). It must fit one run (credits-per-run) and at most ${starts/* MAX_STARTS */.NV} runs, the starts the dashboard's ledger keeps.`,
        example: 9000
    }),
    'credits-per-run': key(wholeNumber(1, 10_000), {
        form: 'whole number (1–10,000)',
        description: 'The estimate of one job or follow-up, for max-credits, the preview and the approval box. 180 is Mintlify’s published average for an update from code changes.',
        example: 180
    }),
    'max-open': key(wholeNumber(1, 100), {
        form: 'whole number (1–100)',
        description: 'At most this many docs pull requests of change runs open at once, as the dashboard records them (a running job without one yet counts): a change that cannot fold waits on the dashboard (needs dashboard: true). Those of issue, comment and prompt runs are not recorded, so not counted.',
        example: 1
    }),
    'expire-after': key(schema_duration(EXPIRE_AFTER_MS, '14d', '1h to 365d'), {
        form: 'duration, 1h–365d (14d, 2w)',
        description: 'Change runs close the docs pull requests they started, as the dashboard records them, once nobody but the agent has touched one for this long, with a comment; the next change starts a new job. Those of issue, comment and prompt runs are not recorded, so never closed. Needs dashboard: true and the docs-token input.',
        example: '14d'
    }),
    'keep-label': key(label('a label name of 1 to 50 characters'), {
        form: 'label name',
        description: 'A docs pull request carrying this label never expires.',
        example: 'docs-agent-keep'
    }),
    reviewers: key(choice(choices/* REVIEWER_MODES */.nP), {
        form: choices/* REVIEWER_MODES */.nP.join(' | '),
        description: 'authors: request the authors of the documented pull requests as reviewers of the docs pull request (bots and people without access left out). Needs the docs-token input.',
        example: 'authors'
    }),
    'quiet-hours': key(dist/* pipe */.FsL(dist/* strictObject */.rej({
        days: dist/* optional */.lqM(dist/* pipe */.FsL(dist/* array */.YOg(dist/* picklist */.KIO(choices/* WEEKDAYS */.w4, `must be days such as ${choices/* WEEKDAYS */.w4.slice(5).join(', ')}`), 'must be a YAML list of days'), dist/* maxLength */.Ru6(7, 'must list each day once at most'), dist/* check */.z6Y(days => new Set(days).size === days.length, issue => `lists ${twice(issue.input)} twice: list each day once`))),
        from: dist/* optional */.lqM(clockTime),
        to: dist/* optional */.lqM(clockTime),
        timezone: dist/* optional */.lqM(dist/* pipe */.FsL(dist/* string */.YjP('must be a time zone such as Europe/Berlin'), dist/* check */.z6Y(isTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC')))
    }, 'must be a mapping of days, from, to and timezone'), dist/* check */.z6Y(q => (q.from === undefined) === (q.to === undefined), 'needs both from and to, or neither'), dist/* check */.z6Y(q => Boolean(q.days?.length) || q.from !== undefined, 'needs days, or from and to'), 
    // The window is [from, to): one that ends where it starts holds no minute.
    dist/* forward */.sYn(dist/* check */.z6Y(q => q.from === undefined || q.from !== q.to, issue => `from and to are both ${issue.input.from}: a window that ends where it starts is never quiet. Write two different times (to may be the next morning), or list whole days in days`), ['to'])), {
        form: '{days, from, to, timezone}',
        description: 'Hours in which changes start nothing: a change run’s batch waits on the dashboard, and the first run after them (the next merge, a scheduled catch-up) takes it. days are whole days; from and to a daily window (it may cross midnight); timezone defaults to UTC. With approval: dashboard, a tick starts the batch within them, unless max-jobs, max-credits or max-open holds it. Issue, comment and review runs (a person asked) are not held.',
        example: {
            days: ['saturday', 'sunday'],
            from: '20:00',
            to: '07:00',
            timezone: 'Europe/Berlin'
        }
    }),
    'docs-root': key(dist/* pipe */.FsL(dist/* string */.YjP('must be a folder path such as docs'), dist/* maxLength */.Ru6(200, 'must be a folder path of at most 200 characters'), dist/* regex */.yGV(/^(?!\/)(?!.*(?:^|\/)\.{1,2}(?:\/|$))[\w.@()+ -]+(?:\/[\w.@()+ -]+)*\/?$/, 'must be a folder path relative to the repository’s root, without . or .. parts')), {
        form: 'folder path, relative, no ..',
        description: 'The folder Mintlify deploys (where docs.json is), when it is not the repository’s root. Unset: found from the repository’s files.',
        example: 'docs'
    })
}, 'must be a mapping of keys such as extends: standard'), dist/* title */.DDF('Mintlify docs agent policy'), dist/* description */.h_('The policy of the Mintlify docs agent actions (.github/docs-agent.yml): what starts the agent, which changes count, the budget and the dashboard.'));
/** The keys, in the file's order. */
const POLICY_KEYS = Object.keys(POLICY_SCHEMA.entries);
/** What people read about a key: its form, description and example. */
function keyInfo(name) {
    const schema = POLICY_SCHEMA.entries[name].wrapped;
    return {
        form: dist/* getTitle */.LK1(schema) ?? '',
        description: dist/* getDescription */.fYn(schema) ?? '',
        example: dist/* getMetadata */.yb2(schema).examples[0]
    };
}

// EXTERNAL MODULE: ./.tmp/ncc-js/policy/yaml-text.js
var yaml_text = __webpack_require__(4234);
;// CONCATENATED MODULE: ./.tmp/ncc-js/policy/key-messages.js




// The words of the messages about the file's keys: the example of a right value, the key someone
// meant. Apart from problems.ts so that a run with no policy file loads no schema.
/** `max-jobs: 20/month`: a right value of a key, for its messages. */
const exampleOf = (key) => `${key}: ${(0,yaml_text/* yamlFlow */.Uq)(keyInfo(key).example)}`;
/** Edits between two words, for the key someone meant. */
function distance(a, b) {
    let row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++)
            next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        row = next;
    }
    return row[b.length];
}
/** The known word closest to `word`, when it is close enough to be what was meant. */
function closest(word, known) {
    const lower = word.toLowerCase().replace(/_/g, '-');
    let best;
    for (const candidate of known) {
        const edits = distance(lower, candidate);
        if (!best || edits < best.edits)
            best = { word: candidate, edits };
    }
    return best && best.edits <= Math.max(2, Math.floor(word.length / 4)) ? best.word : undefined;
}
/** Why a key the file writes at its top is not one of the policy's; its value is never shown. */
function unknownKeyMessage(key) {
    const name = (0,policy_problems/* keyName */.xT)(key);
    if (key === policy_actions/* CONFIG_INPUT */.sR)
        return `'${policy_actions/* CONFIG_INPUT */.sR}' is the input that names this file, not a key in it: remove the line.`;
    if (key === policy_actions/* REMOVED_INPUT */.OC)
        return `'${policy_actions/* REMOVED_INPUT */.OC}' is gone in v2: ${policy_actions/* REMOVED_WHY */.G7}. Remove the line.`;
    if (key === 'prompt')
        return `'prompt' is not a key of the policy file: a standing instruction sent before every request is 'instructions' (such as instructions: Write in the second person.); the prompt of one run stays an input of ${policy_actions/* ACTION_USES */.q4.main.uses}.`;
    const actions = (0,policy_actions/* actionsOf */.Ro)(key);
    if (actions.length)
        return `'${name}' is an input of the workflow's step (${actions.length === policy_actions/* AGENT_ACTIONS */.Wh.length ? 'every agent action has it' : actions.map(a => policy_actions/* ACTION_USES */.q4[a].uses).join(', ')}), not a key of the policy file: keep it under 'with:' there${/token|key/.test(key) ? ', from a secret' : ''}, and remove it here.`;
    const meant = closest(key, POLICY_KEYS);
    return meant
        ? `'${name}' is not a key of the policy file; did you mean '${meant}'? (such as ${exampleOf(meant)})`
        : `'${name}' is not a key of the policy file; the keys are ${POLICY_KEYS.join(', ')}.`;
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/policy/locator.js

/** Where the problems of one file are found: its document, lines and text. */
class Locator {
    text;
    doc;
    lines;
    constructor(text, doc, lines) {
        this.text = text;
        this.doc = doc;
        this.lines = lines;
    }
    at(offset, key) {
        const { line, col } = this.lines.linePos(offset);
        return { line, column: col, ...(key ? { key } : {}) };
    }
    /** The node at a path of keys and indexes, and the pair holding it. */
    find(path) {
        let node = this.doc.contents;
        let pair;
        for (const step of path) {
            const items = node?.items;
            if (!Array.isArray(items))
                return {};
            if (typeof step === 'number') {
                node = items[step];
                pair = undefined;
            }
            else {
                pair = items.find(p => p.key?.value === step);
                if (!pair)
                    return {};
                node = pair.value;
            }
        }
        return { node: node, ...(pair ? { pair } : {}) };
    }
    /** The line of a value (or of its key, when it has no value), named by its path. */
    value(path) {
        const { node, pair } = this.find(path);
        const offset = node?.range?.[0] ?? pair?.key?.range?.[0] ?? 0;
        return this.at(offset, pathName(path));
    }
    /** The line of a key itself: an unknown key, or a key another one depends on. */
    key(path) {
        const { pair } = this.find(path);
        return this.at(pair?.key?.range?.[0] ?? 0, pathName(path));
    }
    /** The path of the innermost key or item holding an offset, for a syntax error's message. */
    pathAt(offset) {
        const path = [];
        let node = this.doc.contents;
        for (;;) {
            const items = node?.items;
            if (!Array.isArray(items))
                return path;
            const index = items.findIndex(item => {
                const range = item.key !== undefined ? spanOf(item) : item.range;
                return range && offset >= range[0] && offset <= range[1];
            });
            if (index < 0)
                return path;
            const item = items[index];
            if ('key' in item && item.key !== undefined) {
                path.push(String(item.key?.value));
                node = item.value;
            }
            else {
                path.push(index);
                node = item;
            }
        }
    }
}
/** A pair's extent: from its key to the end of its value (not the line breaks after it). */
function spanOf(pair) {
    const start = pair.key?.range?.[0];
    const end = pair.value?.range?.[1] ?? pair.key?.range?.[1];
    return start === undefined || end === undefined ? undefined : [start, end];
}
/** `code-repositories[1].paths[0]`. */
const pathName = (path) => path
    .map((step, i) => typeof step === 'number' ? `[${step}]` : i ? `.${(0,policy_problems/* keyName */.xT)(step)}` : (0,policy_problems/* keyName */.xT)(step))
    .join('');

// EXTERNAL MODULE: ./.tmp/ncc-js/policy/presets.js
var presets = __webpack_require__(2175);
;// CONCATENATED MODULE: ./.tmp/ncc-js/policy/read.js











/** Aliases (`*name`) a file may expand; a few shared lists are fine, a billion laughs is not. */
const MAX_ALIAS_COUNT = 100;
/** Problems from the top of the file down. */
const inOrder = (problems) => problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
/** What YAML's parser says, in words for a person who wrote a policy file. */
function syntaxMessage(code, message, line) {
    if (code === 'DUPLICATE_KEY')
        return 'is set twice: keep one.';
    if (code === 'MULTIPLE_DOCS')
        return 'the file holds more than one YAML document: remove the --- line and what follows, or merge them.';
    // `[src/{api,cli}/**]`: in a list on one line, braces and commas are YAML's own.
    const glob = /\[[^\]#]*[{}]/.exec(line)
        ? ' Inside [ ], YAML reads {, } and , itself: quote a glob that has them ("src/{api,cli}/**"), or write the list one item a line after "- ".'
        : ' Check the indentation and the quotes.';
    return `is not valid YAML: ${message
        .split('\n')[0]
        ?.replace(/ at line \d+, column \d+:?$/, '')
        .replace(/\.$/, '')}.${glob}`;
}
/** Tags, and aliases with no anchor: YAML's reading of a glob that starts with `!` or `*`. */
function nodeProblems(yaml, where) {
    const problems = [];
    const anchors = new Set();
    yaml.visit(where.doc, {
        Node(_key, node) {
            const offset = node.range?.[0] ?? 0;
            const key = pathName(where.pathAt(offset));
            if (yaml.isAlias(node)) {
                const alias = `*${node.source}`;
                if (!anchors.has(node.source))
                    problems.push({
                        ...where.at(offset, key),
                        message: (0,policy_problems/* looksSecret */.n0)(alias)
                            ? 'reads as a YAML alias with no anchor before it (not shown: it looks like a secret).'
                            : `${alias} reads as a YAML alias, and no &${node.source} comes before it. A glob that starts with * must be quoted: "${alias}".`
                    });
                return;
            }
            if (node.anchor)
                anchors.add(node.anchor);
            if (node.tag === undefined)
                return;
            // The node starts after its tag, which the parser resolved: `!!str` is yaml.org's `str`.
            const tag = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
            const at = where.text.lastIndexOf(tag, offset);
            const glob = `${tag}${yaml.isScalar(node) && node.source ? ` ${node.source}` : ''}`;
            problems.push({
                ...where.at(at < 0 ? offset : at, key),
                message: (0,policy_problems/* looksSecret */.n0)(tag)
                    ? 'reads as a YAML tag (not shown: it looks like a secret). Quote the value.'
                    : tag.startsWith('!!') || tag.startsWith('!<')
                        ? `YAML tags (${tag}) are not read in a policy file: write the value without it.`
                        : `${tag} reads as a YAML tag. A glob that starts with ! must be quoted: "${glob}".`
            });
        }
    });
    return problems;
}
/** One message of valibot's, for the value it judged: what is wrong, what it got, what is right. */
function issueProblem(where, issue) {
    const path = (issue.path ?? []).map(item => item.key);
    const last = issue.path?.at(-1);
    const top = path[0];
    if (issue.type === 'strict_object' && last?.origin === 'key') {
        const name = String(last.key);
        return {
            ...where.key(path),
            message: path.length === 1
                ? unknownKeyMessage(name)
                : `'${(0,policy_problems/* keyName */.xT)(name)}' is not a key of a repository: write repository, paths and paths-ignore only (such as ${exampleOf('code-repositories')}).`
        };
    }
    // A rule on a whole list or mapping says what is wrong in it; "got a list" would add nothing.
    const whole = issue.kind === 'validation' && typeof issue.input === 'object' && issue.input;
    return {
        ...where.value(path),
        message: `${issue.message}${whole ? '' : `; got ${(0,policy_problems/* shown */.SP)(issue.input)}`}. For example: ${exampleOf(top)}`
    };
}
/** A union's issues are its options'; keep those of the option the value was meant for. */
function meant(issue) {
    if (issue.type !== 'union' || !issue.issues)
        return [issue];
    // An option's issues have paths from the union's value on; a wrong type of the value itself is
    // the option the value was not meant for.
    const inner = issue.issues.filter(i => i.path?.length || i.kind === 'validation');
    if (!inner.length)
        return [issue];
    const path = issue.path ?? [];
    return inner
        .map(i => ({ ...i, path: [...path, ...(i.path ?? [])] }))
        .flatMap(meant);
}
/** The version a newer action wrote: refused before anything else, since its keys may be new. */
function newerVersion(where, value) {
    const version = value?.version;
    if (typeof version !== 'number' || version <= choices/* POLICY_VERSION */.Ky)
        return undefined;
    return {
        ...where.value(['version']),
        message: `${version} is a format written for a newer action; this one reads version ${choices/* POLICY_VERSION */.Ky}. Update the action in the workflow, or write the file for version ${choices/* POLICY_VERSION */.Ky}.`
    };
}
/** Where a rule across keys points: the key the file writes, else the preset that set it. */
function culprit(where, file, keys) {
    const written = keys.find(k => file[k] !== undefined);
    return written ? where.key([written]) : where.key(['extends']);
}
/** Why a limit needs the dashboard: its ledger is what holds it. */
const LEDGER_HOLDS = {
    'max-jobs': 'counts the jobs and follow-ups started, so without it nothing would hold the budget',
    'max-credits': 'counts the jobs and follow-ups the credits are estimated from, so without it nothing would hold the budget',
    'max-open': 'lists the docs pull requests open, so without it nothing would hold the cap',
    'expire-after': 'lists the docs pull requests to close, so without it none would ever be closed'
};
/**
 * `max-credits` counts the runs `credits-per-run` fits in it: none, and nothing would ever start
 * (the budget says the next place frees now, forever); more than the MAX_STARTS starts the ledger
 * keeps, and the budget would never hold. Named at the key the file writes, the other as it came.
 */
function creditProblems(where, file, values, from) {
    const credits = values['max-credits'];
    const perRun = values['credits-per-run'];
    if (credits === undefined)
        return [];
    const runs = Math.floor(credits / perRun);
    if (runs >= 1 && runs <= starts/* MAX_STARTS */.NV)
        return [];
    const at = culprit(where, file, ['max-credits', 'credits-per-run']);
    const stated = (key) => `${key}: ${values[key]}${from(key)}`;
    // The key a problem points at is named before its message: its value alone leads.
    const lead = (key) => at.key === key ? String(values[key]) : stated(key);
    const over = `${runs} jobs and follow-ups in 30 days, more than the ${starts/* MAX_STARTS */.NV} starts the dashboard's ledger keeps: the budget would never hold`;
    const message = at.key === 'credits-per-run'
        ? runs < 1
            ? `${lead('credits-per-run')} is more than ${stated('max-credits')}: no job or follow-up would ever fit, so nothing would start. Write credits-per-run: ${credits} or less, or a higher max-credits.`
            : `${lead('credits-per-run')} lets ${stated('max-credits')} allow ${over}. Write credits-per-run: ${Math.floor(credits / (starts/* MAX_STARTS */.NV + 1)) + 1} or more, or a lower max-credits.`
        : runs < 1
            ? `${lead('max-credits')} is less than ${stated('credits-per-run')}, the estimate of one job or follow-up: none would ever fit, so nothing would start. Write max-credits: ${perRun} or more, or a lower credits-per-run.`
            : `${lead('max-credits')} at ${stated('credits-per-run')} allows ${over}. Write max-credits: ${(starts/* MAX_STARTS */.NV + 1) * perRun - 1} or less, or a higher credits-per-run.`;
    return [{ ...at, message }];
}
/** The rules across keys, on the values after the preset: a preset can set one side. */
function crossKeyProblems(where, file, values, options) {
    const problems = [];
    const from = (key) => file[key] !== undefined
        ? ''
        : file.extends && presets/* PRESETS */.f[file.extends][key] !== undefined
            ? ` (from the preset ${file.extends})`
            : ' (the default)';
    problems.push(...creditProblems(where, file, values, from));
    if (values.approval === 'dashboard' && !values.dashboard)
        problems.push({
            ...culprit(where, file, ['dashboard', 'approval']),
            message: `approval: dashboard${from('approval')} needs dashboard: true: the changes wait for a tick on the dashboard issue. Write dashboard: true, or approval: none.`
        });
    if (!values.dashboard)
        for (const key of Object.keys(policy/* LEDGER_LIMITS */.Lv)) {
            if (values[key] === undefined)
                continue;
            // Every preset sets a limit, and no key unsets one: only leaving the preset does.
            const remove = file[key] === undefined && file.extends
                ? `extends: ${file.extends} (a key cannot unset what its preset sets)`
                : key;
            problems.push({
                ...culprit(where, file, ['dashboard', key]),
                message: `${key}${from(key)} needs dashboard: true: the dashboard's ledger ${LEDGER_HOLDS[key]}. Write dashboard: true, or remove ${remove}.`
            });
        }
    const repositories = values['code-repositories'];
    if (values.since !== undefined && !repositories.length)
        problems.push({
            // Named at since: the key leads the message.
            ...where.value(['since']),
            message: `needs code-repositories: it is how far back a code repository the dashboard has no last documented commit for is read. Remove it, or list the repositories.`
        });
    if (repositories.length && !values.dashboard)
        problems.push({
            ...culprit(where, file, ['dashboard', 'code-repositories']),
            message: `code-repositories needs dashboard: true: the dashboard's ledger keeps each code repository's last documented commit. Write dashboard: true, or remove code-repositories.`
        });
    const seen = new Set();
    repositories.forEach((entry, i) => {
        const name = typeof entry === 'string' ? entry : entry.repository;
        const key = (0,code_repositories/* repositoryKey */.Kq)(name);
        const at = where.value(typeof entry === 'string' ? ['code-repositories', i] : ['code-repositories', i, 'repository']);
        if (seen.has(key))
            problems.push({
                ...at,
                message: `lists ${name} a second time: keep one entry per repository.`
            });
        seen.add(key);
        if (options.repository && key === (0,code_repositories/* repositoryKey */.Kq)(options.repository))
            problems.push({
                ...at,
                message: `${name} is the repository this workflow runs in: its merges are the docs themselves, never documented again. List the code repositories only, or remove code-repositories to document this repository's own changes.`
            });
    });
    return problems;
}
/**
 * The policy a file's text sets, or a PolicyError naming each problem's line and key: YAML that
 * does not parse, a key set twice, a tag or an alias where a glob was meant, an unknown key, a
 * wrong value, a version of a newer action, a rule across keys. `file` is the path the messages
 * name. The YAML parser is loaded here only, when there is a file to read.
 */
async function readPolicy(text, file, options = {}) {
    const size = (0,runner_text/* bytes */.ee)(text);
    if (size > choices/* MAX_POLICY_BYTES */.mk)
        throw new policy_problems/* PolicyError */.pn(file, [
            {
                message: `is ${Math.ceil(size / 1024)} KB; a policy file is at most ${choices/* MAX_POLICY_BYTES */.mk / 1024} KB. Is the path the policy file's?`
            }
        ]);
    const yaml = await __webpack_require__.e(/* import() */ 815).then(__webpack_require__.t.bind(__webpack_require__, 8815, 19));
    const lines = new yaml.LineCounter();
    const doc = yaml.parseDocument(text, {
        lineCounter: lines,
        prettyErrors: false,
        uniqueKeys: true,
        stringKeys: true,
        merge: false,
        version: '1.2',
        schema: 'core'
    });
    const where = new Locator(text, doc, lines);
    // One problem a line: what follows a broken line is often the same mistake, seen again.
    const syntax = [];
    for (const error of doc.errors) {
        const at = where.at(error.pos[0]);
        if (syntax.some(p => p.line === at.line))
            continue;
        const line = text.split('\n')[(at.line ?? 1) - 1] ?? '';
        syntax.push({
            // The innermost path of broken YAML may be what the parser made of it: name the key only.
            ...where.at(error.pos[0], pathName(where.pathAt(error.pos[0]).slice(0, 1))),
            message: syntaxMessage(error.code, error.message, line)
        });
    }
    if (syntax.length)
        throw new policy_problems/* PolicyError */.pn(file, syntax);
    const nodes = nodeProblems(yaml, where);
    if (nodes.length)
        throw new policy_problems/* PolicyError */.pn(file, inOrder(nodes));
    let value;
    try {
        value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
    }
    catch {
        // The one error toJS throws once the aliases resolve: too many of them.
        throw new policy_problems/* PolicyError */.pn(file, [
            {
                message: `its aliases (*name) expand to more than ${MAX_ALIAS_COUNT} values: write the lists out.`
            }
        ]);
    }
    if (typeof value !== 'object' || Array.isArray(value))
        throw new policy_problems/* PolicyError */.pn(file, [
            {
                ...where.at(doc.contents?.range[0] ?? 0),
                message: `must be a mapping of keys such as extends: standard; got ${(0,policy_problems/* shown */.SP)(value)}.`
            }
        ]);
    const newer = newerVersion(where, value);
    if (newer)
        throw new policy_problems/* PolicyError */.pn(file, [newer]);
    // valibot names the first unknown key of a mapping; name them all, the file's own mistakes first.
    const unknown = Object.keys(value)
        .filter(name => !Object.hasOwn(POLICY_SCHEMA.entries, name))
        .map(name => ({ ...where.key([name]), message: unknownKeyMessage(name) }));
    const parsed = dist/* safeParse */.xLC(POLICY_SCHEMA, value, { abortPipeEarly: true });
    if (!parsed.success || unknown.length)
        throw new policy_problems/* PolicyError */.pn(file, inOrder([
            ...unknown,
            ...(parsed.issues ?? [])
                .filter(i => !(i.type === 'strict_object' && i.path?.length === 1))
                .flatMap(meant)
                .map(i => issueProblem(where, i))
        ]));
    const values = (0,policy/* policyValues */.hm)(parsed.output);
    const rules = crossKeyProblems(where, parsed.output, values, options);
    if (rules.length)
        throw new policy_problems/* PolicyError */.pn(file, inOrder(rules));
    return (0,policy/* resolvePolicy */.nZ)(values, file);
}


/***/ }),

/***/ 1554:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Aq: () => (/* binding */ STARTS_KEPT_MS),
/* harmony export */   M4: () => (/* binding */ decodeStarts),
/* harmony export */   NV: () => (/* binding */ MAX_STARTS),
/* harmony export */   PI: () => (/* binding */ noteStart),
/* harmony export */   Rc: () => (/* binding */ DAY_KEY),
/* harmony export */   dA: () => (/* binding */ utcDay),
/* harmony export */   de: () => (/* binding */ MAX_DAYS),
/* harmony export */   di: () => (/* binding */ OUTCOME_WINDOW_MS),
/* harmony export */   jG: () => (/* binding */ startsIn30Days),
/* harmony export */   wm: () => (/* binding */ encodeStarts)
/* harmony export */ });
/* harmony import */ var _runner_duration_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8703);

/**
 * When the jobs and follow-ups of a project started: every start of the last 31 days (`spend`),
 * for `max-jobs` and the budgets over a month, and a count per UTC day (`startsByDay`) for the
 * dashboard's 30-day outcomes. This file holds the compact form the starts are written in.
 */
/** Starts older than this are never needed again: the longest budget window is a month. */
const STARTS_KEPT_MS = 31 * _runner_duration_js__WEBPACK_IMPORTED_MODULE_0__/* .DAY_MS */ .sO;
/**
 * The newest starts kept, however many there were: a budget of more than this many jobs in its
 * window would never be reached, so none may be allowed.
 */
const MAX_STARTS = 2000;
/** The dashboard's outcomes cover docs pull requests created in the last 30 days. */
const OUTCOME_WINDOW_MS = 30 * _runner_duration_js__WEBPACK_IMPORTED_MODULE_0__/* .DAY_MS */ .sO;
/** Day counts kept: the outcomes' 30 days and the day in progress. */
const MAX_DAYS = 31;
/**
 * The starts as written in the state: the first in epoch milliseconds, then each one's distance
 * from the one before, all in base 36 and separated by commas (`"mij5kx3l,2w7k,0,8c1"`). A start
 * is about 5 characters instead of 14: 2,000 starts over a month fit in about 10,000 characters.
 * Sorted oldest first; a start that is not a whole, non-negative number of milliseconds is left out.
 */
function encodeStarts(starts) {
    const sorted = starts.filter(at => Number.isSafeInteger(at) && at >= 0).sort((a, b) => a - b);
    return sorted
        .map((at, i) => (i === 0 ? at : at - sorted[i - 1]).toString(36))
        .join(',');
}
/** A base-36 number of the compact form: at most 11 digits (36^11 ms is far beyond any date). */
const STEP = /^[0-9a-z]{1,11}$/;
/**
 * The starts a compact form holds, oldest first, the newest MAX_STARTS; undefined when it is out
 * of shape (a step that is not a base-36 number, or a time beyond any safe number).
 */
function decodeStarts(text) {
    if (text === '')
        return [];
    const starts = [];
    let at = 0;
    for (const step of text.split(',')) {
        if (!STEP.test(step))
            return undefined;
        at += parseInt(step, 36);
        if (!Number.isSafeInteger(at))
            return undefined;
        starts.push(at);
    }
    return starts.slice(-MAX_STARTS);
}
/** A key of `startsByDay`: a UTC day. */
const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;
/** The UTC day of a time, as `startsByDay` keys it. */
const utcDay = (at) => new Date(at).toISOString().slice(0, 10);
/** A job or follow-up started at `at`: for `max-jobs` and for the 30-day outcomes. */
function noteStart(project, at) {
    project.spend.push(at);
    const days = (project.startsByDay ??= {});
    const day = utcDay(at);
    days[day] = (days[day] ?? 0) + 1;
}
/** Jobs and follow-ups started in the last 30 days (whole UTC days, today included). */
function startsIn30Days(project, now) {
    const from = utcDay(now - OUTCOME_WINDOW_MS + _runner_duration_js__WEBPACK_IMPORTED_MODULE_0__/* .DAY_MS */ .sO);
    return Object.entries(project.startsByDay ?? {})
        .filter(([day]) => day >= from && day <= utcDay(now))
        .reduce((sum, [, n]) => sum + n, 0);
}


/***/ })

};
