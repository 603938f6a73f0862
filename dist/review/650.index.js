export const id = 650;
export const ids = [650];
export const modules = {

/***/ 2650:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  countedRun: () => (/* binding */ countedRun)
});

// EXTERNAL MODULE: ./.tmp/ncc-js/runner/errors.js
var errors = __webpack_require__(7156);
// EXTERNAL MODULE: ./.tmp/ncc-js/runner/duration.js
var duration = __webpack_require__(8703);
// EXTERNAL MODULE: ./.tmp/ncc-js/github/event.js
var github_event = __webpack_require__(1450);
;// CONCATENATED MODULE: ./.tmp/ncc-js/github/dashboard-issues.js

const editor = (actor) => ({
    by: login(actor),
    bot: actor?.__typename === 'Bot'
});
/** Issues read with the label, and edits read per issue at each end of the list. */
const LABELLED = 20;
const EDITS = 20;
/** Edits read per request when the newest EDITS are not enough, and how many such requests. */
const EDITS_PAGE = 100;
const EDIT_PAGES = 5;
/** The most edits ever read of one issue, from its newest: beyond, the action's last write is unknown. */
const MOST_EDITS_READ = EDITS + EDITS_PAGE * EDIT_PAGES;
const EDIT_NODES = 'nodes { editedAt editor { __typename login } }';
const ISSUE_FIELDS = `number title body state url locked createdAt
  author { login }
  lastEditedAt editor { __typename login }
  labels(first: 20) { nodes { name } }
  firstEdits: userContentEdits(first: ${EDITS}) { totalCount pageInfo { hasNextPage endCursor } ${EDIT_NODES} }
  lastEdits: userContentEdits(last: ${EDITS}) { totalCount pageInfo { hasPreviousPage startCursor } ${EDIT_NODES} }`;
/** The next edits from the newest end of the list: after the cursor when GitHub lists them newest first. */
const OLDER_EDITS = (newestFirst) => `query($owner: String!, $name: String!, $number: Int!, $cursor: String!) {
  repository(owner: $owner, name: $name) {
    issue(number: $number) {
      userContentEdits(${newestFirst ? `first: ${EDITS_PAGE}, after: $cursor` : `last: ${EDITS_PAGE}, before: $cursor`}) {
        pageInfo { hasNextPage endCursor hasPreviousPage startCursor } ${EDIT_NODES}
      }
    }
  }
}`;
const LABELLED_QUERY = `query($owner: String!, $name: String!, $label: String!) {
  viewer { login }
  repository(owner: $owner, name: $name) {
    issues(labels: [$label], first: ${LABELLED}, states: [OPEN, CLOSED], orderBy: { field: UPDATED_AT, direction: DESC }) {
      nodes { ${ISSUE_FIELDS} }
    }
  }
}`;
const TITLE_QUERY = `query($search: String!) {
  search(query: $search, type: ISSUE, first: ${LABELLED}) {
    nodes { ... on Issue { ${ISSUE_FIELDS} } }
  }
}`;
/**
 * The issues with the dashboard's label (open and closed, most recently updated first) and who the
 * token is (the action's identity): one request.
 */
async function labelledIssues(graphql, where, label) {
    const data = (await graphql(LABELLED_QUERY, {
        owner: where.owner,
        name: where.repo,
        label
    }));
    const viewer = typeof data?.viewer?.login === 'string' ? data.viewer.login : undefined;
    return { ...(viewer ? { viewer } : {}), issues: issueNodes(data?.repository?.issues?.nodes) };
}
/**
 * The issues of this title that `author` opened, open or closed, labelled or not: where a dashboard
 * whose label was taken off is found again. One request (GitHub's issue search).
 */
async function authoredIssues(graphql, where, title, author) {
    // A bot is searched for as `app/NAME`; the title is quoted, its own quotes dropped.
    const who = author.endsWith('[bot]') ? `app/${(0,github_event/* botName */.hO)(author)}` : author;
    const search = `repo:${where.owner}/${where.repo} is:issue in:title "${title.replace(/"/g, ' ')}" author:${who}`;
    const data = (await graphql(TITLE_QUERY, { search }));
    return issueNodes(data?.search?.nodes).filter(i => i.title === title && sameActor(i.author, author));
}
/** Two logins name the same account: GraphQL names a bot without `[bot]`, REST with it. */
const sameActor = (a, b) => a !== '' && (0,github_event/* botName */.hO)(a).toLowerCase() === (0,github_event/* botName */.hO)(b).toLowerCase();
function issueNodes(nodes) {
    if (!Array.isArray(nodes))
        return [];
    return nodes.flatMap((n) => {
        const node = n;
        if (!node || typeof node.number !== 'number' || typeof node.body !== 'string')
            return [];
        const lastAt = time(node.lastEditedAt);
        return [
            {
                number: node.number,
                title: typeof node.title === 'string' ? node.title : '',
                body: node.body,
                state: node.state === 'OPEN' ? 'open' : 'closed',
                url: typeof node.url === 'string' ? node.url : '',
                labels: names(node.labels),
                locked: node.locked === true,
                author: login(node.author),
                createdAt: time(node.createdAt) ?? 0,
                ...edits(node.firstEdits, node.lastEdits),
                ...(lastAt !== undefined ? { lastEdit: { ...editor(node.editor), at: lastAt } } : {})
            }
        ];
    });
}
/**
 * The newest edits, newest first, from both ends of the list: GitHub documents no order, so the end
 * holding the newest edit is the newest end. When the two ends hold the whole list, all of it;
 * otherwise the newest end's, with where to read on.
 */
function edits(first, last) {
    const head = editNodes(first);
    const tail = editNodes(last);
    const total = first?.totalCount;
    const newestFirst = newestAt(head) >= newestAt(tail);
    // Without a count (not GitHub's answer), a list shorter than asked for is the whole list.
    const whole = typeof total === 'number' ? head.length + tail.length >= total : head.length < EDITS;
    if (whole) {
        // The ends overlap: what the tail repeats of the head is left out once.
        const all = typeof total === 'number' && head.length < total
            ? [...head, ...tail.slice(head.length + tail.length - total)]
            : head;
        return { edits: newestFirstOrder(all) };
    }
    const info = (newestFirst ? first : last);
    const cursor = info?.pageInfo?.[newestFirst ? 'endCursor' : 'startCursor'];
    return {
        edits: newestFirstOrder(newestFirst ? head : tail),
        olderEdits: { ...(typeof cursor === 'string' ? { cursor } : {}), newestFirst }
    };
}
/**
 * Reads more of an issue's edits, from the newest end on, until one `enough` is found or the list
 * ends, EDIT_PAGES requests at most: the issue with those edits added.
 */
async function withOlderEdits(graphql, where, issue, enough) {
    let read = issue;
    for (let page = 0; page < EDIT_PAGES && read.olderEdits?.cursor !== undefined; page++) {
        const { cursor, newestFirst } = read.olderEdits;
        const data = (await graphql(OLDER_EDITS(newestFirst), {
            owner: where.owner,
            name: where.repo,
            number: issue.number,
            cursor
        }));
        const connection = data?.repository?.issue?.userContentEdits;
        const found = newestFirstOrder(editNodes(connection));
        const next = connection?.pageInfo?.[newestFirst ? 'endCursor' : 'startCursor'];
        const more = connection?.pageInfo?.[newestFirst ? 'hasNextPage' : 'hasPreviousPage'];
        const { olderEdits: _read, ...rest } = read;
        read = {
            ...rest,
            edits: [...read.edits, ...found],
            ...(more === true && typeof next === 'string' && found.length > 0
                ? { olderEdits: { cursor: next, newestFirst } }
                : {})
        };
        if (found.some(enough))
            break;
    }
    return read;
}
function editNodes(connection) {
    const nodes = connection?.nodes;
    return (Array.isArray(nodes) ? nodes : []).flatMap(e => {
        const at = time(e?.editedAt);
        return at === undefined ? [] : [{ ...editor(e?.editor), at }];
    });
}
const newestAt = (edits) => Math.max(-Infinity, ...edits.map(e => e.at));
/** Newest first; edits of one second keep GitHub's order among them, reversed when it lists oldest first. */
const newestFirstOrder = (edits) => {
    const ordered = newestAt(edits) === edits[0]?.at ? [...edits] : [...edits].reverse();
    return ordered.sort((a, b) => b.at - a.at);
};
function names(connection) {
    const nodes = connection?.nodes;
    return Array.isArray(nodes)
        ? nodes.flatMap(l => {
            const name = l?.name;
            return typeof name === 'string' ? [name] : [];
        })
        : [];
}
const login = (actor) => {
    const value = actor?.login;
    return typeof value === 'string' ? value : '';
};
const time = (value) => {
    const at = typeof value === 'string' ? Date.parse(value) : NaN;
    return Number.isFinite(at) ? at : undefined;
};

// EXTERNAL MODULE: ./node_modules/valibot/dist/index.mjs
var dist = __webpack_require__(7934);
// EXTERNAL MODULE: ./.tmp/ncc-js/records/record.js
var record = __webpack_require__(6508);
// EXTERNAL MODULE: ./.tmp/ncc-js/records/ledger/starts.js
var starts = __webpack_require__(1554);
;// CONCATENATED MODULE: ./.tmp/ncc-js/records/ledger/format.js


/**
 * The ledger's format, defined once: what the agent has done and owes for one repository, per
 * Mintlify project, as the dashboard issue's signed state holds it. The types are inferred from
 * these schemas. Reading is forgiving field by field and trusts nothing: a field out of shape is
 * dropped or takes its default, an item out of shape leaves its list, and one bad field never
 * loses the rest of the ledger. Older formats are brought to this one by migrations.ts first.
 */
/**
 * The format this action reads and writes (the state's `v`). A change to what a field means or how
 * it is written takes the next number and a migration from this one (migrations.ts). Every format
 * keeps `v` and `issue` where they are: an older action reads only those of a newer state, to say
 * that a newer version wrote it (and where), and never writes over it.
 */
const LEDGER_FORMAT = 2;
/** A change's title as kept: one line, shortened. */
const MAX_TITLE = 100;
/** As many as `code-repositories` may list. */
const MAX_REPOSITORIES = 50;
/** Watermarks read: those listed, and room for those a run has not dropped yet. */
const MAX_WATERMARKS = 4 * MAX_REPOSITORIES;
/** A repository's names before its renames, kept on its watermark. */
const MAX_FORMER_NAMES = 5;
/** Shown on the dashboard: why a docs pull request was kept open is one line. */
const MAX_KEPT_WHY = 200;
/** Identities a ledger remembers as its writers: a token switched more often forgets the oldest. */
const MAX_WRITERS = 5;
/** Why an impact was not measured: one line. */
const MAX_UNSURE = 300;
/** What each figure of a ReaderImpact counts, in order. */
const IMPACT_MEASURES = [
    'humanViews',
    'humanVisitors',
    'aiVisitors',
    'thumbsDown',
    'zeroClickSearches',
    'unansweredQuestions'
];
const SHA = /^[0-9a-f]{40}$/;
/** A batch id is a short lower-case word (it is shown in a checkbox line); a login is GitHub's. */
const BATCH_ID = /^[a-z0-9]{1,16}$/;
const LOGIN = /^[A-Za-z0-9-]{1,39}(\[bot\])?$/;
/** A repository's owner/name as GitHub allows them; a branch name of reasonable length. */
const REPOSITORY = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9_.-]{1,100}$/;
const BRANCH = /^[^\s]{1,255}$/;
/** A GraphQL node id (`R_kgDO…`, or an older `MDEwOlJlcG9zaXRvcnk…`). */
const NODE_ID = /^[A-Za-z0-9_=+/-]{1,100}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;
// The building blocks. A default that is a list or a record is made anew each time: the fallback
// is the object itself otherwise, and a ledger that changes it would change every later default.
/** A JSON object, not a list. */
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The same as a schema: its values unchecked. */
const anyRecord = dist/* custom */.IeY(isRecord);
/** A field left out when missing or out of shape. */
const maybe = (schema) => dist/* fallback */.NpB(dist/* optional */.lqM(schema), undefined);
/** Any string; empty when out of shape. */
const format_text = dist/* fallback */.NpB(dist/* string */.YjP(), '');
/** A string cut to `max` characters. */
const cut = (max) => dist/* pipe */.FsL(dist/* string */.YjP(), dist/* transform */.pdi(s => s.slice(0, max)));
/** Any finite number; 0 when out of shape. */
const figure = dist/* fallback */.NpB(dist/* pipe */.FsL(dist/* number */.aig(), dist/* finite */.E2x()), 0);
/** A time after the epoch (ms). */
const format_time = dist/* pipe */.FsL(dist/* number */.aig(), dist/* finite */.E2x(), dist/* gtValue */.zYL(0));
/** A count above zero, in whole numbers. */
const count = dist/* pipe */.FsL(dist/* number */.aig(), dist/* finite */.E2x(), dist/* gtValue */.zYL(0), dist/* transform */.pdi(Math.floor));
/** A whole number above zero. */
const whole = dist/* pipe */.FsL(dist/* number */.aig(), dist/* safeInteger */.Y2b(), dist/* gtValue */.zYL(0));
const matching = (pattern) => dist/* pipe */.FsL(dist/* string */.YjP(), dist/* regex */.yGV(pattern));
/** A record whose fields are checked one by one; anything else reads as an empty record. */
const fields = (entries) => dist/* pipe */.FsL(dist/* unknown */.L5J(), dist/* transform */.pdi(value => (isRecord(value) ? value : {})), dist/* object */.Ikc(entries));
/** A list whose items out of shape are left out; anything else reads as an empty list. */
const listOf = (item) => dist/* fallback */.NpB(dist/* pipe */.FsL(dist/* array */.YOg(dist/* unknown */.L5J()), dist/* transform */.pdi(items => items.flatMap(value => {
    const read = dist/* safeParse */.xLC(item, value);
    return read.success ? [read.output] : [];
}))), () => []);
/** A change to the default branch: a merged pull request, or a commit pushed without one. */
const ChangeRefSchema = fields({
    /** The merge (or pushed) commit; empty for a pull request GitHub gave no merge commit. */
    sha: format_text,
    pr: maybe(dist/* number */.aig()),
    /** The pull request's title, or the commit's first line; shortened. */
    title: dist/* fallback */.NpB(cut(MAX_TITLE), ''),
    url: maybe(dist/* string */.YjP()),
    /** owner/name of its code repository, in a docs project of several (`code-repositories`). */
    repo: maybe(matching(REPOSITORY))
});
/**
 * Readers before and after a docs pull request merged, in two windows of `days` whole UTC days
 * either side of the merge's day. The figures are in IMPACT_MEASURES' order; null where unknown.
 * Out of shape in any figure, the impact is dropped whole.
 */
const figures = dist/* pipe */.FsL(dist/* array */.YOg(dist/* nullable */.mee(dist/* pipe */.FsL(dist/* number */.aig(), dist/* integer */.ndf(), dist/* minValue */.Wwf(0)))), dist/* length */.Bw9(IMPACT_MEASURES.length));
const ReaderImpactSchema = dist/* object */.Ikc({
    at: format_time,
    days: dist/* pipe */.FsL(dist/* number */.aig(), dist/* integer */.ndf(), dist/* minValue */.Wwf(1)),
    before: figures,
    after: figures,
    /** The comment on the docs pull request (`impact-comment: pr`). */
    commentUrl: maybe(dist/* pipe */.FsL(dist/* string */.YjP(), dist/* startsWith */.w1_('https://'))),
    /** Why its pages could not be told (no docs root, a site built elsewhere): nothing was measured. */
    unsure: maybe(dist/* pipe */.FsL(dist/* string */.YjP(), dist/* nonEmpty */.hq(), dist/* transform */.pdi(s => s.slice(0, MAX_UNSURE)))),
    /** It changed no site page: nothing was measured, its terms neither. */
    noPages: maybe(dist/* literal */.euz(true))
});
/** Why a docs pull request older than `expire-after` stays open (a person's work on it), and when. */
const KeptOpenSchema = dist/* object */.Ikc({
    why: dist/* pipe */.FsL(dist/* string */.YjP(), dist/* nonEmpty */.hq(), dist/* transform */.pdi(s => s.slice(0, MAX_KEPT_WHY))),
    at: format_time
});
/**
 * Ledger states of a job that may still take a follow-up: running, or its docs pull request open.
 * `max-open` counts these jobs and `expire-after` closes their docs pull requests.
 */
const format_LIVE = new Set(['active', 'open', 'started']);
const LedgerJobSchema = fields({
    id: format_text,
    /** The docs pull request as the service reported it: the only link a fold is decided by. */
    prLink: maybe(dist/* string */.YjP()),
    /**
     * As last seen: `active` while the agent works; `open`, `merged` or `closed` for its docs pull
     * request; `expired` once this action closed it for `expire-after`.
     */
    state: format_text,
    startedAt: figure,
    /** When its docs pull request was opened, once read from GitHub (epoch ms). */
    prCreatedAt: maybe(format_time),
    /** When its docs pull request was merged, closed or expired, once seen (epoch ms). */
    endedAt: maybe(format_time),
    /** When this action last read its docs pull request for the outcomes (epoch ms). */
    checkedAt: maybe(format_time),
    changes: listOf(ChangeRefSchema),
    /** Changes folded in beyond those listed. */
    moreChanges: figure,
    /**
     * The code repositories (owner/name) of changes no longer listed, in a docs project of several:
     * the outcomes per repository still count the job for them once its list is cut to fit.
     */
    moreRepositories: maybe(dist/* pipe */.FsL(listOf(matching(REPOSITORY)), dist/* transform */.pdi(names => names.slice(0, MAX_REPOSITORIES)), dist/* check */.z6Y(names => names.length > 0))),
    /** Its merged docs pull request's reader impact, once measured (`impact-after`): measured once. */
    impact: maybe(ReaderImpactSchema),
    /** Its docs pull request is a draft, as last read: counted apart from those ready for review. */
    draft: maybe(dist/* literal */.euz(true)),
    /** Whether a person (not the agent) committed to its docs pull request, once read after the merge. */
    personCommitted: maybe(dist/* boolean */.zMY()),
    /**
     * Its merged docs pull request has more timeline events than one read holds and none of those
     * read is a person's commit: whether one is cannot be known, so it is left out of the zero-touch
     * rate, and not read again.
     */
    touchUnread: maybe(dist/* literal */.euz(true)),
    kept: maybe(KeptOpenSchema),
    /**
     * The git email the agent commits with, from its docs pull request's first commit the first time
     * its activity was read: a person's later rebase or squash does not make their commits the agent's.
     */
    agentEmail: maybe(dist/* pipe */.FsL(dist/* string */.YjP(), dist/* regex */.yGV(EMAIL), dist/* toLowerCase */.PXX()))
});
/**
 * A write whose answer never came (or came as a 500, 502 or 504): it may have started a job, so it
 * is not sent again by itself; a tick on its box by someone with `required-permission` sends it again.
 */
const UncertainSchema = fields({
    /** Its id, named in its box on the dashboard (base 36 of `at`); none in entries from before boxes. */
    id: maybe(matching(BATCH_ID)),
    at: figure,
    what: dist/* fallback */.NpB(dist/* picklist */.KIO(['new-job', 'follow-up']), 'new-job'),
    job: maybe(dist/* string */.YjP()),
    changes: listOf(ChangeRefSchema),
    /**
     * Changes of the request beyond those kept, counted: a box sends the kept ones again, and the
     * dashboard says the rest are to be sent with a prompt.
     */
    moreChanges: maybe(count),
    why: format_text
});
const RunEntrySchema = fields({
    at: figure,
    /** The workflow run's page. */
    url: format_text,
    /** The run (GITHUB_RUN_ID) and step that wrote it: a re-run of the step resumes its job. */
    run: format_text,
    step: format_text,
    /** The newest commit the run covered. */
    head: maybe(dist/* string */.YjP()),
    result: format_text,
    job: maybe(dist/* string */.YjP()),
    changes: figure,
    note: format_text
});
/** Changes not yet handed over: one batch, which later changes join. Not a record: none. */
const WaitingFields = dist/* object */.Ikc({
    changes: listOf(ChangeRefSchema),
    why: format_text,
    since: figure,
    /** With `approval: dashboard`: the batch's id, named in its checkbox on the dashboard. */
    batch: maybe(matching(BATCH_ID)),
    /** Who ticked the batch's box, with `required-permission`, and when: it starts once within budget. */
    approvedBy: maybe(matching(LOGIN)),
    approvedAt: maybe(format_time),
    /** What the run that gated the batch would have done: `new-job`, or the job a follow-up goes to. */
    wouldDo: maybe(dist/* object */.Ikc({
        decision: dist/* picklist */.KIO(['new-job', 'follow-up']),
        job: maybe(cut(100)),
        promptBytes: figure
    }))
});
const WaitingSchema = dist/* pipe */.FsL(WaitingFields, 
// A time of approval means nothing without who approved.
dist/* transform */.pdi((w) => w.approvedBy ? w : { ...w, approvedAt: undefined }));
/** A repository not read yet: its name as listed, and since when its changes wait. */
const UnreadSchema = dist/* object */.Ikc({ name: matching(REPOSITORY), since: format_time });
/** A code repository's last documented commit, and when it moved there. */
const WatermarkSchema = dist/* object */.Ikc({
    sha: matching(SHA),
    at: figure,
    /** The repository as `code-repositories` spells it. */
    name: matching(REPOSITORY),
    /** Its default branch, as last read. */
    branch: matching(BRANCH),
    /**
     * GitHub's node id of the repository: it survives a rename, so a repository listed under its
     * new name finds the watermark recorded under its old one.
     */
    id: maybe(matching(NODE_ID)),
    /**
     * The names it had before a rename, the latest first: the dashboard's jobs name the changes sent
     * before it under those, and a change they hold is not sent again under its new name.
     */
    formerly: maybe(dist/* pipe */.FsL(listOf(matching(REPOSITORY)), dist/* transform */.pdi(names => names.slice(0, MAX_FORMER_NAMES)), dist/* check */.z6Y(names => names.length > 0))),
    /**
     * When `code-repositories` stopped listing it: kept (a few, the newest) so that a repository
     * listed again, or renamed, goes on from where it was documented.
     */
    left: maybe(format_time)
});
/**
 * Entries by repository, keyed by owner/name in lower case: each dropped when out of `schema`'s
 * shape or filed under another name than its own; the first `max` read.
 */
function byRepository(schema, max) {
    return dist/* pipe */.FsL(anyRecord, dist/* transform */.pdi(entries => Object.fromEntries(Object.entries(entries)
        .slice(0, max)
        .flatMap(([key, value]) => {
        const entry = dist/* safeParse */.xLC(schema, value);
        return entry.success && key === entry.output.name.toLowerCase()
            ? [[key, entry.output]]
            : [];
    }))));
}
/** Repositories listed but never read yet (GitHub refused them): when a run first said they wait. */
const unreadRepositories = byRepository(UnreadSchema, MAX_REPOSITORIES);
/**
 * The code repositories' watermarks, each dropped when out of shape; the first MAX_WATERMARKS read.
 * Runs drop those of repositories no longer listed when they write; a ledger an older version wrote
 * may hold more than MAX_REPOSITORIES, and a listed repository's must not be the one cut.
 */
const watermarks = byRepository(WatermarkSchema, MAX_WATERMARKS);
/** Day counts: `YYYY-MM-DD` keys with whole counts of 0 to a million; the last MAX_DAYS days. */
const dayCounts = dist/* pipe */.FsL(anyRecord, dist/* transform */.pdi(days => Object.fromEntries(Object.entries(days)
    .filter(([day, n]) => starts/* DAY_KEY */.Rc.test(day) && Number.isInteger(n) && n >= 0 && n <= 1e6)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .slice(-starts/* MAX_DAYS */.de))));
const ProjectLedgerSchema = fields({
    /** The newest commit of the default branch whose changes have been handed to the agent. */
    documented: maybe(dist/* object */.Ikc({ sha: matching(SHA), at: figure })),
    /**
     * With `code-repositories`: each code repository's last documented commit, by owner/name in
     * lower case (GitHub's names are case-insensitive). A ledger without it reads as before.
     */
    repositories: maybe(watermarks),
    /**
     * With `code-repositories`: listed repositories no run could read yet, by key: their first look
     * reads their merges since then, as the warning promised, rather than recording their head.
     */
    unread: maybe(unreadRepositories),
    jobs: listOf(LedgerJobSchema),
    /** Changes not yet handed over, and why (over budget, for example). */
    waiting: dist/* fallback */.NpB(dist/* nullable */.mee(WaitingSchema), null),
    /**
     * Changes after the last documented commit (and after the waiting ones) beyond one run's bounds,
     * as the last run counted them: the next runs take them, oldest first.
     */
    backlog: maybe(count),
    uncertain: listOf(UncertainSchema),
    /**
     * When each job and follow-up started (epoch ms), for `max-jobs`: those of the last 31 days, the
     * newest MAX_STARTS, written in their compact form (starts.ts). Out of shape: none.
     */
    spend: dist/* fallback */.NpB(dist/* pipe */.FsL(dist/* string */.YjP(), dist/* transform */.pdi(starts/* decodeStarts */.M4), dist/* array */.YOg(dist/* number */.aig())), () => []),
    /**
     * Jobs and follow-ups started per UTC day (`2026-11-24`), for the dashboard's 30-day outcomes:
     * only the last 31 days are kept.
     */
    startsByDay: maybe(dayCounts),
    runs: listOf(RunEntrySchema),
    /** Runs older than those listed, counted. */
    olderRuns: figure,
    /** Jobs older than those listed (they left the ledger to keep it within its share), counted. */
    olderJobs: maybe(count),
    /** Uncertain requests older than those listed (beyond the ten kept), counted: their boxes are gone. */
    olderUncertain: maybe(count),
    /**
     * `impact-after` (whole days) of the last run that measured reader impact: while it is set, a
     * merged docs pull request not measured yet is kept with its changes until it can be.
     */
    impactDays: maybe(dist/* pipe */.FsL(dist/* number */.aig(), dist/* integer */.ndf(), dist/* minValue */.Wwf(1), dist/* maxValue */.cGV(28)))
});
/** The state: its format, where and when it was written, and each Mintlify project's part. */
const LedgerSchema = dist/* object */.Ikc({
    /** The format (LEDGER_FORMAT): migrations bring an older one here before this schema reads it. */
    v: dist/* pipe */.FsL(dist/* number */.aig(), dist/* value */.Uq6(LEDGER_FORMAT)),
    /**
     * The dashboard issue the state was written in (its signature covers it): a copy of the state in
     * another issue is refused. None in a state written before states were bound to their issue.
     */
    issue: maybe(whole),
    /** How many times the action has written the state: one more with every write. */
    version: maybe(whole),
    /** When the action wrote it (epoch ms): of several dashboards, the newest state is the ledger. */
    writtenAt: maybe(whole),
    /**
     * A mark of this write alone (random): two runs that wrote from the same state in the same
     * millisecond wrote two states, which `version` and `writtenAt` would not tell apart.
     */
    write: maybe(matching(/^[A-Za-z0-9_-]{1,32}$/)),
    /**
     * Who wrote it: the identities of `github-token` (as GraphQL's viewer names them) that wrote this
     * ledger, the newest last, MAX_WRITERS at most. Their edits of the body are the action's writes
     * for the rollback check, so a team that switches tokens keeps its ledger. None in a state written
     * before states named their writers.
     */
    writers: maybe(dist/* pipe */.FsL(dist/* array */.YOg(matching(LOGIN)), dist/* transform */.pdi(writers => writers.slice(-MAX_WRITERS)))),
    /**
     * This ledger started afresh because the state before it was deleted or could not be read: when
     * (the edit that did it, epoch ms), why, and by whom. Shown on the page: what that state held is
     * lost.
     */
    afresh: maybe(dist/* object */.Ikc({
        at: dist/* pipe */.FsL(dist/* number */.aig(), dist/* finite */.E2x(), dist/* minValue */.Wwf(0)),
        why: dist/* picklist */.KIO(['deleted', 'unreadable']),
        by: maybe(matching(LOGIN))
    })),
    projects: dist/* fallback */.NpB(dist/* record */.g1P(dist/* string */.YjP(), ProjectLedgerSchema), () => ({}))
});
const emptyLedger = () => ({ v: LEDGER_FORMAT, projects: {} });
/** A project with nothing recorded: every field at its default. */
const emptyProject = () => dist/* parse */.qgA(ProjectLedgerSchema, {});
/** The state as written: in this format, each project's starts in their compact form. */
function storedLedger(ledger) {
    const projects = Object.entries(ledger.projects).map(([id, project]) => [
        id,
        { ...project, spend: (0,starts/* encodeStarts */.wm)(project.spend) }
    ]);
    return { ...ledger, v: LEDGER_FORMAT, projects: Object.fromEntries(projects) };
}
/** A change's title as the ledger keeps it: one line, shortened. */
const ledgerTitle = (text) => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line;
};

;// CONCATENATED MODULE: ./.tmp/ncc-js/records/ledger/fit.js




/**
 * The ledger within its share of the dashboard's body, however long its history: what is written
 * is bounded first by counts, then by size, the least needed giving way first.
 */
/** The state's share of the issue body (GitHub allows 65,536 characters in all). */
const MAX_STATE_CHARS = 24_000;
const MAX_JOBS = 10;
/**
 * Jobs kept beyond the last MAX_JOBS: those whose docs pull request is still open (`max-open` counts
 * them, `expire-after` closes them, however old), then those opened in the outcome window.
 */
const MAX_OUTCOME_JOBS = 50;
const MAX_CHANGES_PER_JOB = 20;
const MAX_WAITING = 50;
const MAX_UNCERTAIN = 10;
/** Changes an uncertain request keeps for its box: one run's bounds in one repository, twice. */
const MAX_UNCERTAIN_CHANGES = 50;
const MAX_RUNS = 20;
/** When a job's docs pull request was opened, as far as known: never before its job started. */
const fit_openedAt = (job) => job.prCreatedAt ?? job.startedAt;
/**
 * A merged docs pull request whose reader impact is still to be measured (`impactDays` set): until
 * its windows and the day of lag are over, and a week more for a weekly schedule.
 */
function awaitsImpact(job, impactDays, now) {
    if (!impactDays || job.state !== 'merged' || job.impact || job.endedAt === undefined)
        return false;
    return job.endedAt > now - (impactDays + 2 + 7) * duration/* DAY_MS */.sO;
}
/**
 * The ledger within its share of the body, however long the history: the oldest runs and the
 * change lists of the oldest jobs are summarised by their counts first. The starts the budgets
 * count never give way: they are bounded by time and by MAX_STARTS alone.
 */
function fitLedger(ledger, now) {
    const fitted = structuredClone(ledger);
    for (const project of Object.values(fitted.projects)) {
        project.spend = project.spend
            .filter(at => at > now - starts/* STARTS_KEPT_MS */.Aq)
            .sort((a, b) => a - b)
            .slice(-starts/* MAX_STARTS */.NV);
        if (project.startsByDay) {
            const from = (0,starts/* utcDay */.dA)(now - starts/* MAX_DAYS */.de * duration/* DAY_MS */.sO);
            project.startsByDay = Object.fromEntries(Object.entries(project.startsByDay).filter(([day]) => day > from));
        }
        for (const job of project.jobs)
            trimChanges(job, MAX_CHANGES_PER_JOB);
        // Beyond the last MAX_JOBS, a job stays while its docs pull request may be open, however old
        // (the caps and the expiry act on it), and for the outcomes: a docs pull request opened in the
        // window, without its change list (counted); and, where reader impact is measured, one merged
        // but not measured yet, with its changes (their titles give the terms it is measured on).
        const waits = (j) => awaitsImpact(j, project.impactDays, now);
        const older = keptOlder(project.jobs.slice(0, Math.max(0, project.jobs.length - MAX_JOBS)), j => Boolean(j.prLink) && (fit_openedAt(j) > now - starts/* OUTCOME_WINDOW_MS */.di || waits(j)));
        for (const job of older)
            if (!waits(job))
                trimChanges(job, 0);
        keepJobs(project, [...older, ...project.jobs.slice(-MAX_JOBS)]);
        if (project.waiting)
            project.waiting.changes = project.waiting.changes.slice(-MAX_WAITING);
        for (const entry of project.uncertain)
            trimUncertain(entry, MAX_UNCERTAIN_CHANGES);
        const dropped = project.uncertain.length - MAX_UNCERTAIN;
        if (dropped > 0) {
            project.olderUncertain = (project.olderUncertain ?? 0) + dropped;
            project.uncertain = project.uncertain.slice(-MAX_UNCERTAIN);
        }
        dropOldRuns(project, MAX_RUNS);
    }
    // Measured as written: the starts in their compact form.
    const size = () => (0,record/* commentSafeJson */.rV)(storedLedger(fitted)).length;
    for (let keep = MAX_RUNS; size() > MAX_STATE_CHARS && keep > 0; keep = Math.floor(keep / 2))
        for (const project of Object.values(fitted.projects))
            dropOldRuns(project, keep);
    // The changes kept for measuring an older docs pull request's impact give way first.
    if (size() > MAX_STATE_CHARS)
        for (const project of Object.values(fitted.projects))
            for (const job of project.jobs.slice(0, -MAX_JOBS))
                trimChanges(job, 0);
    for (let keep = MAX_CHANGES_PER_JOB; size() > MAX_STATE_CHARS && keep > 0; keep = Math.floor(keep / 2))
        for (const project of Object.values(fitted.projects))
            for (const job of project.jobs)
                trimChanges(job, keep);
    // Then the outcomes give way: only the last MAX_JOBS jobs and the open ones stay; last, those.
    if (size() > MAX_STATE_CHARS)
        for (const project of Object.values(fitted.projects))
            keepJobs(project, [
                ...keptOlder(project.jobs.slice(0, -MAX_JOBS), () => false),
                ...project.jobs.slice(-MAX_JOBS)
            ]);
    if (size() > MAX_STATE_CHARS)
        for (const project of Object.values(fitted.projects))
            keepJobs(project, project.jobs.slice(-MAX_JOBS));
    // And the change lists of uncertain requests and of the waiting batch, counted.
    for (let keep = MAX_UNCERTAIN_CHANGES; size() > MAX_STATE_CHARS && keep > 0; keep = Math.floor(keep / 2))
        for (const project of Object.values(fitted.projects)) {
            for (const entry of project.uncertain)
                trimUncertain(entry, keep);
            if (project.waiting)
                project.waiting.changes = project.waiting.changes.slice(-keep);
        }
    return fitted;
}
/**
 * Of the jobs before the last MAX_JOBS, in their order: those whose docs pull request may be open
 * (a link, a live state), then those `alsoKept` keeps, at most MAX_OUTCOME_JOBS in all, the newest.
 */
function keptOlder(jobs, alsoKept) {
    const open = (j) => Boolean(j.prLink) && format_LIVE.has(j.state);
    const openOnes = jobs.filter(open).slice(-MAX_OUTCOME_JOBS);
    const room = MAX_OUTCOME_JOBS - openOnes.length;
    const others = room > 0 ? jobs.filter(j => !open(j) && alsoKept(j)).slice(-room) : [];
    const kept = new Set([...openOnes, ...others]);
    return jobs.filter(j => kept.has(j));
}
/** An uncertain request as the ledger keeps it: its first MAX_UNCERTAIN_CHANGES changes. */
function keptUncertain(entry) {
    trimUncertain(entry, MAX_UNCERTAIN_CHANGES);
    return entry;
}
/** An uncertain request's oldest changes kept; those beyond, counted. */
function trimUncertain(entry, keep) {
    if (entry.changes.length <= keep)
        return;
    entry.moreChanges = (entry.moreChanges ?? 0) + entry.changes.length - keep;
    entry.changes = entry.changes.slice(0, keep);
}
/** The jobs kept; those that leave are counted, as runs are. */
function keepJobs(project, kept) {
    const gone = project.jobs.length - kept.length;
    if (gone > 0)
        project.olderJobs = (project.olderJobs ?? 0) + gone;
    project.jobs = kept;
}
function trimChanges(job, keep) {
    if (job.changes.length <= keep)
        return;
    const dropped = job.changes.slice(0, job.changes.length - keep);
    const named = new Set((job.moreRepositories ?? []).map(r => r.toLowerCase()));
    for (const { repo } of dropped) {
        if (!repo || named.has(repo.toLowerCase()) || named.size >= MAX_REPOSITORIES)
            continue;
        named.add(repo.toLowerCase());
        job.moreRepositories = [...(job.moreRepositories ?? []), repo];
    }
    job.moreChanges += job.changes.length - keep;
    job.changes = keep > 0 ? job.changes.slice(-keep) : [];
}
function dropOldRuns(project, keep) {
    if (project.runs.length <= keep)
        return;
    project.olderRuns += project.runs.length - keep;
    project.runs = project.runs.slice(-keep);
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/records/ledger/migrations.js



/** How long format 1 kept each start (`spend`): a week, the longest window of `max-jobs` then. */
const V1_STARTS_KEPT_MS = 7 * duration/* DAY_MS */.sO;
/**
 * 1 → 2: the starts kept for the budgets (`spend`) go from a list of epoch milliseconds, the last
 * 7 days, to a compact string of the last 31 days (starts.ts), for budgets over a month.
 *
 * Format 1 knows its starts older than a week only as counts per day (`startsByDay`): each is
 * counted as started at the latest time it can have, the end of its day, and never after the
 * oldest start kept or the week before the state was written (what format 1 dropped was older).
 * A budget over a month then holds them no shorter than the real starts would, and nothing that
 * started within the week is counted twice.
 */
function startsOfAMonth(state) {
    const projects = isRecord(state.projects) ? state.projects : {};
    const writtenAt = typeof state.writtenAt === 'number' ? state.writtenAt : undefined;
    return {
        ...state,
        v: 2,
        projects: Object.fromEntries(Object.entries(projects).map(([id, project]) => [
            id,
            isRecord(project)
                ? { ...project, spend: (0,starts/* encodeStarts */.wm)(v1Starts(project, writtenAt)) }
                : project
        ]))
    };
}
/** A format-1 project's starts: those it kept, and those it counted by day only. */
function v1Starts(project, writtenAt) {
    const kept = (Array.isArray(project.spend) ? project.spend : [])
        .filter((at) => typeof at === 'number' && Number.isFinite(at) && at >= 0)
        .map(Math.floor);
    const days = isRecord(project.startsByDay) ? project.startsByDay : {};
    const latest = kept.reduce((oldest, at) => Math.min(oldest, at), writtenAt === undefined ? Infinity : writtenAt - V1_STARTS_KEPT_MS);
    const earlier = [];
    for (const [day, n] of Object.entries(days)) {
        const start = Date.parse(`${day}T00:00:00Z`);
        if (!starts/* DAY_KEY */.Rc.test(day) || !Number.isFinite(start) || (0,starts/* utcDay */.dA)(start) !== day)
            continue;
        if (!Number.isSafeInteger(n))
            continue;
        const known = kept.filter(at => (0,starts/* utcDay */.dA)(at) === day).length;
        const missing = Math.min(n - known, starts/* MAX_STARTS */.NV);
        const at = Math.max(start, Math.min(start + duration/* DAY_MS */.sO - 1, latest));
        for (let i = 0; i < missing; i++)
            earlier.push(at);
    }
    return [...earlier, ...kept];
}
/** MIGRATIONS[N - 1] brings format N to N + 1. */
const MIGRATIONS = [startsOfAMonth];
/** A state of format `from` (1 to LEDGER_FORMAT) brought to LEDGER_FORMAT, still unchecked. */
function upgraded(state, from) {
    let current = state;
    for (let format = from; format < LEDGER_FORMAT; format++) {
        const migrate = MIGRATIONS[format - 1];
        if (!migrate)
            throw new Error(`no migration from format ${format}`);
        current = migrate(current);
    }
    return current;
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/records/ledger/merge.js


/**
 * Two states of one ledger, written by runs that overlapped, made one. GitHub has no conditional
 * write for an issue's body, so a run that read the dashboard before another run wrote it would
 * otherwise write its decision over that run's job.
 *
 * `latest` (the newest body, another run's) is the base, as that run fitted it: what it moved into
 * the counts of older runs and jobs stays there. Of `ours` (the state this run holds), only what
 * this run itself added (`added`, see addedItems) is put back where `latest` lacks it: its jobs by
 * id, its run entries, and the start recorded with each (`max-jobs` counts them). Besides, each
 * repository's newest watermark, the newest last documented commit and the earliest time a
 * repository began to wait unread are kept, whichever run wrote them. What cannot be told apart
 * item by item (the waiting batch, the uncertain requests, each job's fields) is `latest`'s: the
 * run's own change is made to it again (see Dashboard.write).
 */
function mergedLedger(latest, ours, added) {
    const merged = structuredClone(latest);
    for (const [id, project] of Object.entries(ours.projects)) {
        const into = (merged.projects[id] ??= emptyProject());
        mergeProject(into, project, added[id]);
    }
    merged.version = Math.max(latest.version ?? 0, ours.version ?? 0) || undefined;
    merged.writtenAt = Math.max(latest.writtenAt ?? 0, ours.writtenAt ?? 0) || undefined;
    // Both runs' identities wrote it: the edits of either are the action's.
    const writers = [...new Set([...(ours.writers ?? []), ...(latest.writers ?? [])])];
    if (writers.length)
        merged.writers = writers.slice(-MAX_WRITERS);
    return merged;
}
const noItems = () => ({ jobs: [], runs: [], starts: [] });
/** What `after` holds that `before` did not: the items a change added (see AddedItems). */
function addedItems(before, after) {
    const jobs = new Set(before?.jobs.map(j => j.id));
    const runs = new Set(before?.runs.map(runKey));
    const newRuns = after.runs.filter(r => !runs.has(runKey(r)));
    const starts = counts(before?.spend ?? []);
    const newStarts = [];
    for (const at of after.spend) {
        const left = starts.get(at) ?? 0;
        if (left > 0)
            starts.set(at, left - 1);
        else
            newStarts.push(at);
    }
    // Each new start goes with a new run entry of the same time, one each, when there is one.
    const entries = newRuns.map(r => ({ at: r.at, key: runKey(r), used: false }));
    return {
        jobs: after.jobs.filter(j => !jobs.has(j.id)).map(j => j.id),
        runs: newRuns.map(runKey),
        starts: newStarts.map(at => {
            const entry = entries.find(e => !e.used && e.at === at);
            if (!entry)
                return { at };
            entry.used = true;
            return { at, entry: entry.key };
        })
    };
}
/** Both lists of items, one after the other. */
const joinedItems = (a, b) => ({
    jobs: [...a.jobs, ...b.jobs],
    runs: [...a.runs, ...b.runs],
    starts: [...a.starts, ...b.starts]
});
/** The items `latest` lacks: none when it holds all of them. */
function lackedItems(latest, items) {
    const jobs = new Set(latest?.jobs.map(j => j.id));
    const runs = new Set(latest?.runs.map(runKey));
    // A start is held when the entry recorded with it is; one without an entry, by its time, once.
    const loose = counts(latest?.spend ?? []);
    return {
        jobs: items.jobs.filter(id => !jobs.has(id)),
        runs: items.runs.filter(key => !runs.has(key)),
        starts: items.starts.filter(start => {
            if (start.entry !== undefined)
                return !runs.has(start.entry);
            const left = loose.get(start.at) ?? 0;
            loose.set(start.at, left - 1);
            return left <= 0;
        })
    };
}
/**
 * `latest` holds none of the items (and there are some): it was written from a state read before
 * they were added.
 */
function holdsNone(latest, items) {
    const lacked = lackedItems(latest, items);
    return (!noneAdded(items) &&
        lacked.jobs.length === items.jobs.length &&
        lacked.runs.length === items.runs.length &&
        lacked.starts.length === items.starts.length);
}
const noneAdded = (items) => !items.jobs.length && !items.runs.length && !items.starts.length;
function mergeProject(project, ours, added) {
    const lacked = lackedItems(project, added ?? noItems());
    const jobs = new Set(lacked.jobs);
    project.jobs.push(...structuredClone(ours.jobs.filter(j => jobs.has(j.id))));
    project.jobs.sort((a, b) => a.startedAt - b.startedAt);
    const runs = new Set(lacked.runs);
    project.runs.push(...structuredClone(ours.runs.filter(r => runs.has(runKey(r)))));
    project.runs.sort((a, b) => a.at - b.at);
    // Starts are counts: one held by neither state's twin is added, and counted on its day.
    for (const { at } of lacked.starts) {
        project.spend.push(at);
        const days = (project.startsByDay ??= {});
        days[(0,starts/* utcDay */.dA)(at)] = (days[(0,starts/* utcDay */.dA)(at)] ?? 0) + 1;
    }
    project.spend.sort((a, b) => a - b);
    if (ours.documented && (project.documented?.at ?? -1) < ours.documented.at)
        project.documented = { ...ours.documented };
    mergeWatermarks(project, ours);
    mergeUnread(project, ours);
}
/**
 * Each repository's newest watermark. A repository (its node id) recorded under two keys was
 * renamed (setWatermark moves it to its new name): only the newer of the two stays, so an old name
 * one run dropped is not put back by another.
 */
function mergeWatermarks(project, ours) {
    for (const [key, mark] of Object.entries(ours.repositories ?? {})) {
        const marks = (project.repositories ??= {});
        const other = mark.id
            ? Object.entries(marks).find(([k, m]) => k !== key && m.id === mark.id)
            : undefined;
        if (other) {
            if (other[1].at >= mark.at)
                continue;
            delete marks[other[0]];
        }
        if ((marks[key]?.at ?? -1) < mark.at)
            marks[key] = { ...mark };
    }
}
/**
 * The repositories waiting to be read, from the earliest run that said so; none that has a
 * watermark now (read since).
 */
function mergeUnread(project, ours) {
    for (const [key, entry] of Object.entries(ours.unread ?? {})) {
        if (project.repositories?.[key])
            continue;
        const unread = (project.unread ??= {});
        if ((unread[key]?.since ?? Infinity) > entry.since)
            unread[key] = { ...entry };
    }
}
const counts = (values) => {
    const map = new Map();
    for (const v of values)
        map.set(v, (map.get(v) ?? 0) + 1);
    return map;
};
/** A run entry's identity: its run, step and time; its result changes as the run goes on. */
const runKey = (r) => `${r.run}/${r.step}/${r.at}/${r.job ?? ''}`;

;// CONCATENATED MODULE: ./.tmp/ncc-js/records/ledger.js





/**
 * The ledger's record: the signed state in the dashboard issue's body (agent/ledger/dashboard.ts
 * writes it), read and written here; nothing else anyone writes changes where a change goes. It is
 * beside the records because more than the agent reads it: the gaps sub-action ties readers' gaps
 * to its changes. Its format is ledger/format.ts (with ledger/starts.ts, the starts' compact form),
 * older formats are upgraded by ledger/migrations.ts, and ledger/fit.ts keeps it within its share
 * of the body. What the flows use of those is exported here too, so that they import one module.
 */




/** Finds the dashboard issue among the repository's issues. */
const DASHBOARD_LABEL = 'docs-agent-dashboard';
/**
 * The place the ledger's record is bound to: this repository's dashboard issue. Without an issue,
 * the place states were bound to before they named their issue (read, never written).
 */
const dashboardPlace = (repository, issue) => issue === undefined ? `${repository} dashboard` : `${repository} dashboard #${issue}`;
const TAG = 'mintlify-agent-ledger';
/** The signed state, in the current format, as it stands at the end of the dashboard's body. */
function ledgerRecord(ledger, signer, place, now) {
    const json = (0,record/* commentSafeJson */.rV)(storedLedger(fitLedger(ledger, now)));
    return (0,record/* hideRecord */.sV)(TAG, signer.sign(place, json), json);
}
/** The ledger in a dashboard's body: the newest record that verifies, or why there is none. */
function readLedger(body, signer, place) {
    const records = findRecords(body, TAG);
    if (records.length === 0)
        return { ok: false, why: 'none' };
    const signed = records.find(r => signer.verify(place, r.json, r.signature));
    if (!signed)
        return { ok: false, why: 'unsigned' };
    return parsedLedger(signed.json);
}
/**
 * The ledger in dashboard issue `issue` of `repository`: the newest record that verifies as written
 * in this issue. A record that verifies as written in another issue is a copy (`elsewhere`); one
 * that names no issue and verifies as the repository's is a state written before states were bound
 * to their issue (`legacy`), which the caller trusts only in an issue the action opened.
 */
function readDashboardState(body, signer, repository, issue) {
    const records = (0,record/* findRecords */.gP)(body, TAG);
    if (records.length === 0)
        return { ok: false, why: 'none' };
    for (const record of records) {
        const claimed = claimedIssue(record.json);
        const place = dashboardPlace(repository, claimed);
        if (!signer.verify(place, record.json, record.signature))
            continue;
        const read = parsedLedger(record.json);
        if (!read.ok)
            return read;
        if (claimed === undefined)
            return { ok: true, ledger: read.ledger, legacy: true };
        if (claimed === issue)
            return { ok: true, ledger: read.ledger, legacy: false };
        return { ok: false, why: 'elsewhere', writtenIn: claimed, ledger: read.ledger };
    }
    return { ok: false, why: 'unsigned' };
}
/** The issue a record's JSON says it was written in, unchecked (its signature is checked after). */
function claimedIssue(json) {
    try {
        const issue = JSON.parse(json).issue;
        return Number.isSafeInteger(issue) && issue > 0 ? issue : undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * A verified record's state, in its format or an older one brought to this one, every field
 * checked (ledger/format.ts); a newer format is named, never read.
 */
function parsedLedger(json) {
    let state;
    try {
        state = JSON.parse(json);
    }
    catch {
        return { ok: false, why: 'unreadable' };
    }
    const format = isRecord(state) ? state.v : undefined;
    if (!isRecord(state) || typeof format !== 'number' || !Number.isSafeInteger(format) || format < 1)
        return { ok: false, why: 'unreadable' };
    if (format > LEDGER_FORMAT)
        return { ok: false, why: 'newer', format };
    const read = dist/* safeParse */.xLC(LedgerSchema, upgraded(state, format));
    return read.success ? { ok: true, ledger: read.output } : { ok: false, why: 'unreadable' };
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/dashboard-choice.js




/**
 * How long after the state was written (the action's clock) its write may reach GitHub (GitHub's
 * clock, in whole seconds): an edit by the action later than this wrote a newer state. A version
 * written less than this before the action's last write is not told apart from it.
 */
const WRITE_SLACK_MS = 10_000;
/**
 * The dashboard holds a state a newer version of the action wrote, in a format this one does not
 * know: this version neither reads nor writes it, and starts nothing it could not record.
 */
class NewerLedgerError extends errors/* ExplainedError */.hM {
}
/** What a run says of a dashboard a newer version wrote; `outcome` says what this run did. */
const newerLedger = (url, format, outcome) => new NewerLedgerError(`The dashboard ${url} was written by a newer version of the action (its state is in format ${format}; this version reads formats up to ${LEDGER_FORMAT}), so this version leaves it as it is${outcome}. Update this workflow's 'uses:' pin of mintlify/agent-action (or of its sub-action) to the version your other workflows use, or a newer one.`);
/**
 * The dashboard among `candidates`, or an explained refusal when the newest state the action wrote
 * is not where it can be trusted (restored to an older version, or only a copy of it found).
 */
function chooseDashboard(candidates, ctx) {
    const notices = [];
    const verified = [];
    const copies = [];
    let unreadable;
    const seen = new Set();
    for (const issue of candidates) {
        if (seen.has(issue.number))
            continue;
        seen.add(issue.number);
        const state = readDashboardState(issue.body, ctx.signer, ctx.repository, issue.number);
        const own = sameActor(issue.author, ctx.viewer);
        // Another workflow runs a newer version: its ledger is never written over, nor guessed at.
        if (own && !state.ok && state.why === 'newer')
            throw newerLedger(issue.url, state.format, ': nothing was started');
        // A state bound to this issue verifies only where the action wrote it, with the key: after a
        // switch of 'github-token' the dashboard's author is the earlier token's identity.
        if (state.ok && (own || !state.legacy))
            verified.push({ issue, ledger: state.ledger, legacy: state.legacy });
        else if (!state.ok && state.why === 'elsewhere')
            copies.push({ issue, writtenIn: state.writtenIn, ledger: state.ledger });
        else if (!own && (state.ok || state.why !== 'none'))
            notices.push(`${ref(issue)} has the label '${ctx.label}' but was opened by @${issue.author || 'ghost'}, not by this action's identity @${ctx.viewer}, so it is not the dashboard and nothing in it is used: take the label off.`);
        else if (own && issue.labels.includes(ctx.label) && issue.title === ctx.title)
            unreadable ??= issue;
        else if (own && issue.labels.includes(ctx.label) && !state.ok && state.why === 'none')
            // Another issue of the same identity (a link check, a report) the label was put on: taking
            // it as an empty ledger would lose the real one's state and write over the issue.
            notices.push(`${ref(issue)} has the label '${ctx.label}' but is not the dashboard (its title is not '${ctx.title}' and it holds no dashboard state), so it is left alone: take the label off.`);
    }
    const newest = verified.sort((a, b) => newer(b.ledger, a.ledger))[0];
    for (const copy of copies) {
        const where = `${ref(copy.issue)} holds a copy of the dashboard state written in #${copy.writtenIn}`;
        if (!newest || newer(copy.ledger, newest.ledger) > 0)
            throw new errors/* ExplainedError */.hM(`${where} (${when(copy.ledger)}), newer than any state found where it was written${newest ? ` (${ref(newest.issue)} holds one of ${when(newest.ledger)})` : ''}, so nothing was started: the state of #${copy.writtenIn} was replaced or the issue is gone. Restore #${copy.writtenIn}'s newest body from its edit history (and its label '${ctx.label}'), or, to start a new ledger, take the label off ${ref(copy.issue)}.`);
        notices.push(`${where}, an older one: it is not used; take the label off ${ref(copy.issue)}.`);
    }
    if (!newest) {
        const lost = unreadable && lostState(unreadable, stateOf(unreadable, ctx), ctx.viewer);
        return {
            ...(unreadable ? { issue: unreadable } : {}),
            ...(lost ? { lost } : {}),
            ledger: lost ? { ...emptyLedger(), afresh: lost.afresh } : emptyLedger(),
            notices,
            relabel: false,
            stateUnread: Boolean(unreadable)
        };
    }
    for (const older of verified.slice(1))
        notices.push(`${ref(older.issue)} also holds a dashboard state, older than ${ref(newest.issue)}'s (${when(older.ledger)} against ${when(newest.ledger)}): it is not used; close it or take its label off.`);
    const byAction = actionEdits(newest.issue, newest.ledger, ctx.viewer);
    const restored = restoredBy(newest.issue, newest.ledger, byAction, newest.legacy);
    if (restored === 'unknown')
        throw new errors/* ExplainedError */.hM(`The dashboard ${newest.issue.url} was edited by others so often since this action last wrote it that its last write is not among the newest ${MOST_EDITS_READ} edits GitHub lists, so whether its state is the newest the action wrote cannot be told, and nothing was started. To start the ledger afresh, delete its hidden state (the last HTML comment of the body).`);
    if (restored)
        throw new errors/* ExplainedError */.hM(`The dashboard ${newest.issue.url} holds a state older than the one this action last wrote there: @${restored.by || 'ghost'} changed its body afterwards (${new Date(restored.at).toISOString()}), restoring an earlier version or editing it. Nothing was started, as the budget and the last documented commit would move back. Restore the newest version the action wrote from the issue's edit history; or, to start the ledger afresh, delete its hidden state (the last HTML comment of the body).`);
    const before = newest.ledger.writers?.at(-1) ?? newest.issue.author;
    if (!sameActor(before, ctx.viewer))
        notices.push(`The dashboard ${newest.issue.url} was written by @${before || 'ghost'}, and 'github-token' is now @${ctx.viewer}: its state verifies with the API key, so it stays the ledger, and this run writes it as @${ctx.viewer}. Edits by either identity count as the action's own.`);
    const relabel = !newest.issue.labels.includes(ctx.label);
    if (relabel)
        notices.push(`The dashboard ${newest.issue.url} had lost its label '${ctx.label}'${newest.issue.state === 'open' ? '' : ' and was closed'}: found again by its author and title, it keeps its state and gets its label back.`);
    if (newest.issue.locked)
        notices.push(`The dashboard ${newest.issue.url} is locked: people cannot tick its boxes until it is unlocked.`);
    return { issue: newest.issue, ledger: newest.ledger, notices, relabel };
}
/**
 * Someone other than the action edited the body after its last write, and the state there is not
 * that write's (written more than WRITE_SLACK_MS before the action's newest edit, or that edit is
 * not among those GitHub listed): who made the last edit, and when. `unknown`: the action's newest
 * edit lies beyond the edits read (see needsOlderEdits), so it cannot be told.
 */
function restoredBy(issue, ledger, byAction, legacy) {
    const last = issue.lastEdit ?? issue.edits[0];
    if (!last || byAction(last))
        return undefined;
    const own = issue.edits.find(byAction);
    if (!own && issue.olderEdits)
        return 'unknown';
    const written = legacy ? legacyWrittenBy(ledger) : ledger.writtenAt;
    const slack = legacy ? LEGACY_SLACK_MS : WRITE_SLACK_MS;
    if (own && written !== undefined && own.at <= written + slack)
        return undefined;
    return last;
}
/**
 * What tells the action's edits of `issue`, when the edits read hold none but more are listed (the
 * rollback check needs its newest write, so the caller reads on from the newest end); none when
 * the issue's state is not one the action wrote there, or its newest write is among those read.
 */
function needsOlderEdits(issue, ctx) {
    if (!issue.olderEdits)
        return undefined;
    const state = readDashboardState(issue.body, ctx.signer, ctx.repository, issue.number);
    if (!state.ok || (state.legacy && !sameActor(issue.author, ctx.viewer)))
        return undefined;
    const byAction = actionEdits(issue, state.ledger, ctx.viewer);
    const last = issue.lastEdit ?? issue.edits[0];
    if (!last || byAction(last) || issue.edits.some(byAction))
        return undefined;
    return byAction;
}
/**
 * Which edits of the dashboard are the action's writes: those of this token's identity, of the one
 * that opened the issue, of those the state names as its writers, and of any GitHub App's bot.
 * `github-token` is GITHUB_TOKEN (`github-actions[bot]`) or an App's token: after a switch, and a
 * switch back, the other identity's writes may be newer than the state read, so they count however
 * old that state is. A person's edit is a tick or a restore.
 */
const actionEdits = (issue, ledger, viewer) => (edit) => edit.bot ||
    [viewer, issue.author, ...(ledger.writers ?? [])].some(who => sameActor(edit.by, who));
/**
 * The dashboard's state is gone: deleted (`none`), or garbled, edited by hand or signed with
 * another key. The run starts a new ledger, never silently: it warns, and the page says so, with
 * what was lost and where its last version is (the issue's edit history).
 */
function lostState(issue, why, viewer) {
    const edit = issue.lastEdit ?? issue.edits[0];
    const by = edit && !sameActor(edit.by, viewer) ? edit : undefined;
    const how = why === 'none'
        ? `holds no hidden state: it was deleted${by ? ` (@${by.by || 'ghost'}'s edit of ${iso(by.at)})` : ''}`
        : `holds no state this action wrote with this API key (edited by hand${by ? `, last by @${by.by || 'ghost'} at ${iso(by.at)}` : ''}, or written with another key)`;
    const lost = "the last documented commit (this run documents its own change only), the budget's history ('max-jobs' and 'max-credits' count from here), the changes that waited and the uncertain requests";
    const where = `Their last version is in the issue's edit history: the last version @${viewer} wrote${by ? ` before ${iso(by.at)}` : ''}; send what waited there with a prompt.`;
    return {
        warning: `The dashboard ${issue.url} ${how}, so a new ledger starts from this change, and what the state recorded is lost: ${lost}. ${where}`,
        afresh: {
            at: by?.at ?? issue.lastEdit?.at ?? 0,
            why: why === 'none' ? 'deleted' : 'unreadable',
            ...(by ? { by: by.by } : {})
        }
    };
}
const iso = (at) => new Date(at).toISOString();
/**
 * A job on GitHub runs six hours at most: every write of one run falls within this long of the
 * newest time its state names.
 */
const LEGACY_SLACK_MS = 6 * duration/* HOUR_MS */.iQ;
/**
 * A state from before states were stamped (no issue, no time): when a person could have ticked a
 * box in it (a batch waiting for approval, an uncertain request), a person's edit after the action's
 * may be that tick, so the state counts as written at the newest time it names (within
 * LEGACY_SLACK_MS); with no box to tick, a person's later edit can only have restored or rewritten
 * it, and the state is refused as the stamped ones are.
 */
function legacyWrittenBy(ledger) {
    const projects = Object.values(ledger.projects);
    const boxes = projects.some(p => p.waiting?.batch || p.uncertain.some(u => u.id));
    if (!boxes)
        return undefined;
    const times = projects.flatMap(p => [
        p.documented?.at ?? 0,
        p.waiting?.since ?? 0,
        ...p.runs.map(r => r.at),
        ...p.jobs.flatMap(j => [j.startedAt, j.endedAt ?? 0, j.checkedAt ?? 0]),
        ...p.uncertain.map(u => u.at)
    ]);
    return Math.max(0, ...times);
}
/** Above 0 when `a` is the newer state: written later, or, written at once, written more often. */
const newer = (a, b) => (a.writtenAt ?? 0) - (b.writtenAt ?? 0) || (a.version ?? 0) - (b.version ?? 0);
const when = (ledger) => ledger.writtenAt ? `written ${new Date(ledger.writtenAt).toISOString()}` : 'undated';
const ref = (issue) => `#${issue.number}`;
const stateOf = (issue, ctx) => {
    const state = readDashboardState(issue.body, ctx.signer, ctx.repository, issue.number);
    return state.ok ? 'ok' : state.why;
};

// EXTERNAL MODULE: ./.tmp/ncc-js/agent/settings.js + 2 modules
var agent_settings = __webpack_require__(4360);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./.tmp/ncc-js/github/api.js + 34 modules
var api = __webpack_require__(5021);
// EXTERNAL MODULE: ./.tmp/ncc-js/runner/markdown.js
var markdown = __webpack_require__(5082);
;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/approval-box.js

/**
 * The waiting batch's checkbox on the dashboard (`approval: dashboard`): written by the action,
 * always unticked, and read back from the issue's current body to see whether someone ticked it.
 */
const APPROVAL_PHRASE = 'Start the agent for these changes';
/**
 * A box the action writes, unticked: `phrase (kind \`id\`)`, the id tying a tick to the ledger's
 * own entry (a waiting batch, an uncertain request).
 */
const box = (phrase, kind, id) => `- [ ] ${phrase} (${kind} ${(0,markdown/* codeSpan */.SS)(id)})`;
/** Its ticked form as GitHub writes it when someone clicks it: `- [x] …`, at the start of a line. */
const ticked = (phrase, kind) => new RegExp(`^ {0,3}[-*+] \\[[xX]\\] ${phrase} \\(${kind} \`([a-z0-9]{1,16})\`\\)[ \\t]*$`, 'gm');
/** At most this much of a body is searched: the dashboard's people part is far shorter. */
const MAX_BODY = 70_000;
/** The ids of the ticked boxes in a dashboard body (any text: a person may have edited it). */
const tickedIds = (body, pattern) => [
    ...new Set([...body.slice(0, MAX_BODY).matchAll(pattern)].map(m => m[1]))
];
/** The checkbox line of a batch. */
const approvalBox = (batch) => box(APPROVAL_PHRASE, 'batch', batch);
const TICKED = ticked(APPROVAL_PHRASE, 'batch');
/** The batch ids whose box is ticked in a dashboard body. */
const tickedBatches = (body) => tickedIds(body, TICKED);
/**
 * An uncertain request's checkbox: ticked by someone with `required-permission`, its changes are
 * sent again, once (the entry leaves the ledger when they are).
 */
const RESEND_PHRASE = 'Send these changes again';
const resendBox = (id) => box(RESEND_PHRASE, 'uncertain', id);
const TICKED_RESEND = ticked(RESEND_PHRASE, 'uncertain');
/** The uncertain entries whose box is ticked in a dashboard body. */
const tickedResends = (body) => tickedIds(body, TICKED_RESEND);
/**
 * A body the action writes, with the boxes of `ticked` batches left ticked: a tick someone made while
 * a run was deciding is kept (the run that tick started judges it), not written over.
 */
function keepTicks(body, ticked, resends = []) {
    if (!ticked.length && !resends.length)
        return body;
    return body.replace(/^- \[ \] (.*)$/gm, (line, rest) => ticked.some(batch => line === approvalBox(batch)) || resends.some(id => line === resendBox(id))
        ? `- [x] ${rest}`
        : line);
}
/** A batch id: the moment it began to wait, in base 36 (unique per repository and project). */
const newBatchId = (at) => Math.max(0, Math.floor(at)).toString(36);
const approval_box_when = (at) => at ? ` at ${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
/**
 * What the dashboard says of a batch's approval: the box, what the run would do and its estimated
 * credits with the budget as it stands, or who approved.
 */
function approvalLines(waiting, cost = { creditsPerRun: 180 }) {
    if (!waiting.batch)
        return [];
    if (waiting.approvedBy)
        return [
            `✅ Approved by ${(0,markdown/* escapeMarkdown */.FV)(`@${waiting.approvedBy}`)}${approval_box_when(waiting.approvedAt)} (batch ${(0,markdown/* codeSpan */.SS)(waiting.batch)}): it starts as soon as the limits above allow; ticking again changes nothing.`,
            ''
        ];
    const would = waiting.wouldDo;
    const decision = would?.decision === 'follow-up'
        ? `send these changes as a follow-up to job ${(0,markdown/* codeSpan */.SS)(would.job ?? '?')}, whose docs pull request is open`
        : 'start a new job';
    const size = would ? ` with a prompt of ${kilobytes(would.promptBytes)}` : '';
    const budget = cost.budget ? ` Budget now: ${(0,markdown/* escapeMarkdown */.FV)(cost.budget)}.` : '';
    return [
        approvalBox(waiting.batch),
        '',
        `If started now, the run would ${decision}${size}, about ${cost.creditsPerRun.toLocaleString('en-US')} credits (\`credits-per-run\`, an estimate); it decides again when the box is ticked.${budget} Ticking needs the policy's \`required-permission\` on this repository; a box that stays ticked with nothing started (a newer run took the tick's run's place in the concurrency group) is to be unticked and ticked again.`,
        ''
    ];
}
const kilobytes = (n) => `${Math.max(0.1, Math.round(n / 100) / 10)} KB`;

// EXTERNAL MODULE: ./.tmp/ncc-js/runner/text.js
var runner_text = __webpack_require__(3492);
;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/budget.js


/** Each budget the limits set, where it stands at `now`, from the start of every job and follow-up. */
function budgetStates(spend, limits, now) {
    const states = [];
    if (limits?.maxJobs) {
        const { max, windowMs, text } = limits.maxJobs;
        states.push(budget_stateOf(spend, now, { key: 'max-jobs', text: `max-jobs: ${text}`, windowMs }, max));
    }
    if (limits?.maxCredits) {
        const { max, windowMs } = limits.maxCredits;
        const allowed = Math.floor(max / limits.creditsPerRun);
        states.push(budget_stateOf(spend, now, { key: 'max-credits', text: `max-credits: ${max}`, windowMs }, allowed));
    }
    return states;
}
function budget_stateOf(spend, now, limit, allowed) {
    const inWindow = spend.filter(at => at > now - limit.windowMs && at <= now).sort((a, b) => a - b);
    const left = Math.max(0, allowed - inWindow.length);
    const state = { ...limit, used: inWindow.length, allowed, left };
    if (left > 0 || allowed === 0)
        return state;
    // The window frees one place when its oldest start that counts leaves it.
    const oldest = inWindow[inWindow.length - allowed];
    return { ...state, freesAt: oldest + limit.windowMs };
}
/** The budget that binds first: the one with the fewest starts left (none when no budget is set). */
function tightest(states) {
    return [...states].sort((a, b) => a.left - b.left || (b.freesAt ?? 0) - (a.freesAt ?? 0))[0];
}
/** Why the budget holds a run back, and when it frees. */
function overBudget(state, limits, now) {
    const until = new Date(state.freesAt ?? now).toISOString().slice(0, 16).replace('T', ' ');
    const credits = state.key === 'max-credits'
        ? `, about ${formatCount(state.used * limits.creditsPerRun)} credits at ${formatCount(limits.creditsPerRun)} a run (an estimate),`
        : '';
    return `Over budget: ${state.used} jobs and follow-ups${credits} in the window of '${state.text}'; the next one frees at ${until} UTC.`;
}
/** One budget as people read it: "3 of 20 in 30 days used (max-jobs: 20/month), about 540 credits". */
function budgetText(state, limits) {
    const days = Math.round(state.windowMs / duration/* DAY_MS */.sO);
    const window = days === 1 ? '24 hours' : `${days} days`;
    const credits = (n) => `about ${(0,runner_text/* formatCount */.B4)(n * limits.creditsPerRun)} credits`;
    return state.key === 'max-credits'
        ? `${credits(state.used)} of ${(0,runner_text/* formatCount */.B4)(limits.maxCredits?.max ?? 0)} used in the last ${window} (${state.text}), room for ${state.left} more ${state.left === 1 ? 'start' : 'starts'}`
        : `${state.used} of ${state.allowed} jobs and follow-ups used in the last ${window} (${state.text}), ${credits(state.used)}`;
}
/** Where the project's budgets stand, in one line for the summary and the approval box. */
function budgetSummary(spend, limits, now) {
    if (!limits)
        return undefined;
    const states = budgetStates(spend, limits, now);
    return states.length ? states.map(s => budgetText(s, limits)).join('; ') : undefined;
}
/** Starts in the last `windowMs`, for the estimate beside the budget. */
const startsWithin = (spend, windowMs, now) => spend.filter(at => at > now - windowMs && at <= now).length;

// EXTERNAL MODULE: ./.tmp/ncc-js/github/docs-pulls.js + 1 modules
var docs_pulls = __webpack_require__(9101);
// EXTERNAL MODULE: ./.tmp/ncc-js/agent/names.js
var agent_names = __webpack_require__(3254);
// EXTERNAL MODULE: ./.tmp/ncc-js/github/pull-activity.js
var pull_activity = __webpack_require__(6845);
;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/staleness.js


/**
 * A person's events: not a bot's, not the pull request's author's (the agent opened it), nor a
 * comment by the `docs-token` identity. A commit or push GitHub matched to no account is the agent's
 * when it carries the agent's git email, a person's otherwise.
 */
function staleness_peopleOf(activity, agent) {
    const author = botName(activity.author);
    const token = agent.token ? botName(agent.token) : undefined;
    const email = agent.email ?? activity.openerEmail;
    return activity.events.filter(e => {
        if (e.bot)
            return false;
        if (e.login) {
            const login = botName(e.login);
            return login !== author && !(e.kind === 'comment' && login === token);
        }
        return e.email !== undefined && e.email !== email;
    });
}
/** A commit's author, its committer or a force-push by a person: work on the pull request. */
const staleness_isPush = (e) => e.kind === 'commit' || e.kind === 'push';
function staleness_judgeStaleness(activity, ctx) {
    const keep = ctx.keepLabel.toLowerCase();
    if (keep && activity.labels.some(l => l.toLowerCase() === keep))
        return { keep: `it has the label '${ctx.keepLabel}'` };
    const people = staleness_peopleOf(activity, ctx.agent);
    const commit = people.find(staleness_isPush);
    if (commit)
        return {
            keep: `${who(commit)} ${commit.kind === 'commit' ? 'pushed a commit' : 'pushed'} to it (${staleness_day(commit.at)})`
        };
    // GitHub marks an approval or a request for changes DISMISSED once a later push makes it stale
    // (or someone dismisses it): the person's review was work all the same.
    const review = people.find(e => e.kind === 'review' && e.state !== undefined && WORK[e.state]);
    if (review?.state)
        return { keep: `${who(review)} ${WORK[review.state]} (${staleness_day(review.at)})` };
    // What was not read may hold a person's commit or approval: never closed on a guess.
    if (activity.unread)
        return { keep: `it has more events than the ${MAX_ACTIVITY} newest read for expire-after` };
    const last = people.reduce((a, e) => (!a || e.at > a.at ? e : a), undefined);
    if (last && ctx.now - last.at <= ctx.afterMs)
        return { recent: `${what(last)} by ${who(last)} on ${staleness_day(last.at)}` };
    const since = Math.max(ctx.createdAt, last?.at ?? 0);
    return last && last.at >= ctx.createdAt
        ? { stale: true, since, touched: `${what(last)} by ${who(last)}` }
        : { stale: true, since };
}
/** A login as it may be shown: GitHub's characters only. */
const who = (e) => !e.login
    ? 'a git author GitHub matches to no account'
    : /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/.test(e.login)
        ? `@${e.login}`
        : 'someone';
const WHAT = {
    commit: 'a commit',
    push: 'a push',
    review: 'a review',
    comment: 'a comment',
    label: 'a label',
    unlabel: 'a label removed'
};
/** The reviews that are a person's work on the pull request, and how they are told. */
const WORK = {
    APPROVED: 'approved it',
    CHANGES_REQUESTED: 'requested changes on it',
    DISMISSED: 'reviewed it (approved or requested changes; GitHub dismissed the review since)'
};
const what = (e) => WHAT[e.kind];
const staleness_day = (ms) => new Date(ms).toISOString().slice(0, 10);

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/expiry.js






/** Docs pull requests read at most for expiry in one run (the oldest first). */
const MAX_EXPIRY_READS = 5;
/**
 * `expire-after`: the ledger's docs pull requests of the project that nobody but the agent has
 * touched for longer than the duration are closed with a comment that says what stale meant and
 * links the dashboard. Staleness runs from the last activity by a person (a commit, a review of any
 * state, a comment, a label added or removed), or from the pull request's creation; one that a
 * person pushed to, approved or requested changes on (dismissed since or not) or gave `keep-label`
 * is never closed, and the ledger says why it was kept.
 * At most MAX_EXPIRY_READS pull requests a run, those never kept first: a pull request read (1
 * request), and for one older than the duration its activity (1 GraphQL request, and who
 * `docs-token` is, once). A docs token without access is a warning naming it; the run goes on.
 */
async function expireStale(project, ctx) {
    const updates = [];
    const expired = [];
    const due = project.jobs
        .filter(j => j.prLink && LIVE.has(j.state) && ctx.now - j.startedAt > ctx.afterMs)
        // Kept ones last, the longest unjudged first: a kept pull request never holds back the others.
        .sort((a, b) => (a.kept?.at ?? 0) - (b.kept?.at ?? 0) || a.startedAt - b.startedAt)
        .slice(0, MAX_EXPIRY_READS);
    for (const job of due) {
        const link = job.prLink;
        const where = parsePullLink(link, ctx.serverUrl);
        if (!where)
            continue;
        const turn = await expireOne(job, link, where, ctx);
        if ('stop' in turn)
            break;
        if (turn.update)
            updates.push(turn.update);
        if (turn.expired)
            expired.push(link);
    }
    return { updates, expired };
}
async function expireOne(job, link, where, ctx) {
    const { docs, log } = ctx;
    // A call to the docs repository that fails stops the expiry for this run, saying what to grant.
    const attempt = async (what, then, call) => {
        try {
            return { answer: await call() };
        }
        catch (error) {
            const failed = docsFailure(error);
            log.warning(`Could not ${what} ${link} with '${docs.tokenInput}' (${failed.why}), ${then}${failed.grant('read and write')}`);
            return { stop: true };
        }
    };
    const read = await attempt('read the docs pull request', 'so stale docs pull requests are not closed in this run.', () => docs.pull(where));
    if ('stop' in read)
        return read;
    const pull = read.answer;
    const seen = docsPullState(pull);
    if (seen.state !== 'open')
        return { update: expiry_pullUpdate(job.id, seen) };
    const createdAt = pull.createdAt ?? job.startedAt;
    const open = {
        jobId: job.id,
        state: 'open',
        prCreatedAt: createdAt,
        draft: Boolean(pull.draft)
    };
    if (ctx.now - createdAt <= ctx.afterMs)
        return { update: open };
    let agentEmail = job.agentEmail;
    const judged = await attempt('read who touched the docs pull request', 'so stale docs pull requests are not closed in this run: a person’s work is never closed on a guess.', async () => {
        // Who `docs-token` is: its comments are the action's own, never a person's.
        const token = await docs.identity(where);
        const activity = await docs.activity(where);
        agentEmail ??= activity.openerEmail;
        return judgeStaleness(activity, {
            createdAt,
            now: ctx.now,
            afterMs: ctx.afterMs,
            keepLabel: ctx.keepLabel,
            agent: { token, email: agentEmail }
        });
    });
    if ('stop' in judged)
        return judged;
    const staleness = judged.answer;
    if (!('stale' in staleness)) {
        const why = 'keep' in staleness
            ? staleness.keep
            : `${staleness.recent}, within '${Key.ExpireAfter}: ${ctx.afterText}'`;
        log.info(`Kept the docs pull request ${link} open past '${Key.ExpireAfter}: ${ctx.afterText}': ${why}.`);
        return { update: { ...open, agentEmail, kept: { why, at: ctx.now } } };
    }
    if (ctx.dryRun) {
        log.info(`Dry run: nobody but the docs agent has touched the docs pull request ${link} since ${day(staleness.since)}, longer than '${Key.ExpireAfter}: ${ctx.afterText}': it would be closed.`);
        return {};
    }
    const closing = await attempt('close the docs pull request', `which nobody but the docs agent has touched for longer than '${Key.ExpireAfter}: ${ctx.afterText}'.`, () => docs.close(where));
    if ('stop' in closing)
        return closing;
    const closed = closing.answer;
    // Merged in the meantime: GitHub keeps a merged pull request as it is.
    const after = docsPullState(closed);
    if (after.state === 'merged')
        return { update: expiry_pullUpdate(job.id, after) };
    log.notice(`Closed the docs pull request ${link}: nobody but the docs agent has touched it since ${day(staleness.since)}, longer than '${Key.ExpireAfter}: ${ctx.afterText}'. The next change starts a new job.`);
    try {
        await docs.comment(where, closingComment(ctx, staleness));
    }
    catch (error) {
        log.warning(`Closed ${link} but could not say why in a comment (${docsFailure(error).why}).`);
    }
    return {
        update: { jobId: job.id, state: 'expired', prCreatedAt: createdAt, endedAt: ctx.now },
        expired: true
    };
}
/** What the ledger learns of a job from its docs pull request's state: the state and its times. */
function expiry_pullUpdate(jobId, pull) {
    return {
        jobId,
        state: pull.state,
        ...(pull.createdAt !== undefined ? { prCreatedAt: pull.createdAt } : {}),
        ...(pull.endedAt !== undefined ? { endedAt: pull.endedAt } : {})
    };
}
/** Says what stale meant: nobody but the agent touched it, since when, and how to keep one open. */
function closingComment(ctx, stale) {
    const dashboard = ctx.dashboardUrl
        ? ` The changes it held are listed on the ${markdownLink('docs agent dashboard', ctx.dashboardUrl)}.`
        : '';
    // Named, never mentioned: a closing comment notifies nobody.
    const last = stale.touched ? `the last was ${escapeMarkdown(stale.touched)}` : 'it was opened';
    return [
        `📝 **Mintlify agent action**: closed as stale. Nobody but the docs agent has touched this docs pull request since ${day(stale.since)} (${last}), longer than ${codeSpan(`${Key.ExpireAfter}: ${ctx.afterText}`)} allows.${dashboard}`,
        '',
        `Stale means no commit, review, comment or label added or removed by a person in that time. A docs pull request that a person pushed to, approved or requested changes on (even when GitHub dismissed that review since), or labelled ${codeSpan(ctx.keepLabel)}, is never closed. The next code change starts a fresh docs pull request; reopen this one to keep working on it by hand.`
    ].join('\n');
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/outcomes.js







/** Docs-repository requests at most, in one run, to bring the outcomes up to date. */
const MAX_OUTCOME_READS = 5;
/** An expired docs pull request is read again at most once a day, for a person's reopen and merge. */
const EXPIRED_REREAD_MS = (/* unused pure expression or super */ null && (DAY_MS));
const DECIDED = new Set(['merged', 'closed', 'expired']);
const STILL_OPEN = new Set(['active', 'started', 'open']);
/**
 * The ledger's docs pull requests of the last 30 days whose outcome is not known yet (still open,
 * or merged or closed without its time), and older ones it still lists as open (the ledger keeps
 * those however old, for max-open and expire-after: one merged by hand must leave), are read again,
 * those never read first, then those read longest ago, the oldest first: at most MAX_OUTCOME_READS
 * requests. A token without access is a warning naming it; the run goes on.
 */
async function refreshOutcomes(project, ctx) {
    const due = project.jobs
        .filter(j => j.prLink &&
        !ctx.skip.has(j.id) &&
        (inWindow(j, ctx.now) || LIVE.has(j.state)) &&
        unknown(j, ctx.now))
        .sort((a, b) => (a.checkedAt ?? 0) - (b.checkedAt ?? 0) || openedAt(a) - openedAt(b));
    const changed = [];
    const checked = [];
    let reads = 0;
    const people = personCommits(ctx);
    for (const job of due) {
        if (reads >= MAX_OUTCOME_READS)
            break;
        const link = job.prLink;
        const where = parsePullLink(link, ctx.serverUrl);
        if (!where)
            continue;
        reads++;
        let pull;
        try {
            pull = await ctx.docs.state(where);
        }
        catch (error) {
            const failed = docsFailure(error);
            const { tokenInput } = ctx.docs;
            const text = `Could not read the docs pull request ${link} with '${tokenInput}' (${failed.why}), so the dashboard's outcomes are not brought up to date in this run.${failed.grant('read')}`;
            // The run's own token cannot be expected to read another repository: worth a notice only.
            if (tokenInput === Input.DocsToken)
                ctx.log.warning(text);
            else
                ctx.log.notice(text);
            break;
        }
        const update = { ...outcomeOf(job, pull), checkedAt: ctx.now };
        if (update.state === 'merged' && job.personCommitted === undefined && !people.failed)
            Object.assign(update, await people.committed(where, link, job.agentEmail));
        if (changes(job, update))
            changed.push(update);
        else
            checked.push(update);
    }
    return { changed, checked };
}
/**
 * Whether a person committed to a merged docs pull request, for the zero-touch rate: its activity
 * read once (1 GraphQL request), the agent's identities left out. What cannot be read stays unknown,
 * and no other is read in this run.
 */
function personCommits(ctx) {
    const state = {
        failed: false,
        async committed(where, link, known) {
            try {
                // The token's identity is the agent's only when it is `docs-token`.
                const token = ctx.docs.tokenInput === Input.DocsToken ? await ctx.docs.identity(where) : undefined;
                const activity = await ctx.docs.activity(where);
                const agentEmail = known ?? activity.openerEmail;
                const people = peopleOf(activity, { token, email: agentEmail });
                if (people.some(isPush))
                    return { personCommitted: true, agentEmail };
                // Older commits not read may hold a person's: not known, out of the zero-touch rate.
                if (activity.unread)
                    return { touchUnread: true, agentEmail };
                return { personCommitted: false, agentEmail };
            }
            catch (error) {
                state.failed = true;
                ctx.log.info(`Could not read who committed to ${link} (${docsFailure(error).why}): the zero-touch rate counts it once it is read.`);
                return {};
            }
        }
    };
    return state;
}
function outcomeOf(job, pull) {
    const read = { ...pullUpdate(job.id, pull), draft: pull.draft };
    if (pull.state === 'merged')
        return read;
    // Closed by expire-after: expired still, unless a person reopened and merged it (above). One
    // reopened and open is not the agent's to fold into again.
    if (job.state === 'expired')
        return {
            ...pullUpdate(job.id, { ...pull, endedAt: undefined }),
            state: 'expired',
            draft: pull.draft
        };
    if (pull.state === 'closed')
        return read;
    // A job still at work keeps its state: its docs pull request is open.
    return { ...read, state: job.state === 'active' || job.state === 'started' ? job.state : 'open' };
}
const changes = (job, u) => job.state !== u.state ||
    Boolean(u.prCreatedAt && u.prCreatedAt !== job.prCreatedAt) ||
    Boolean(u.endedAt && u.endedAt !== job.endedAt) ||
    Boolean(u.draft) !== Boolean(job.draft) ||
    (u.personCommitted !== undefined && u.personCommitted !== job.personCommitted) ||
    Boolean(u.touchUnread && !job.touchUnread);
const inWindow = (job, now) => fit_openedAt(job) > now - starts/* OUTCOME_WINDOW_MS */.di;
/**
 * Not decided yet as far as the ledger knows, or decided without the times the figures need, or
 * merged without knowing whether a person committed to it (unless its commits were too many to
 * read), or expired and not read for a day: the closing comment invites a person to reopen it,
 * and they may merge it.
 */
const unknown = (job, now) => job.state === 'expired'
    ? now - (job.checkedAt ?? job.endedAt ?? 0) >= EXPIRED_REREAD_MS
    : !DECIDED.has(job.state) ||
        !job.endedAt ||
        !job.prCreatedAt ||
        (job.state === 'merged' && job.personCommitted === undefined && !job.touchUnread);
function outcomes(project, now, creditsPerRun = 180) {
    const jobs = project.jobs.filter(j => j.prLink && inWindow(j, now));
    const count = (states, draft = false) => jobs.filter(j => states.has(j.state) && Boolean(j.draft) === draft).length;
    const state = (s) => jobs.filter(j => j.state === s).length;
    const merged = state('merged');
    const closed = state('closed');
    const expired = state('expired');
    const touched = jobs.filter(j => j.state === 'merged' && j.personCommitted !== undefined);
    const decided = merged + closed + expired;
    const started = (0,starts/* startsIn30Days */.jG)(project, now);
    const toMerge = jobs
        .filter(j => j.state === 'merged' && j.endedAt && j.endedAt >= j.startedAt)
        .map(j => j.endedAt - j.startedAt);
    return {
        started,
        merged,
        closed,
        expired,
        open: count(STILL_OPEN),
        drafts: count(STILL_OPEN, true),
        decided,
        acceptance: decided ? merged / decided : undefined,
        zeroTouch: touched.filter(j => !j.personCommitted).length,
        touchKnown: touched.length,
        touchTooLong: jobs.filter(j => j.state === 'merged' && j.touchUnread).length,
        medianToMerge: median(toMerge),
        creditsPerMerge: merged ? Math.round((started * creditsPerRun) / merged) : undefined
    };
}
function median(values) {
    if (!values.length)
        return undefined;
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2
        ? sorted[mid]
        : (sorted[mid - 1] + sorted[mid]) / 2;
}
/** A duration in hours under two days, in days from then: `5 hours`, `2.5 days`. */
function hoursOrDays(ms) {
    const hours = ms / duration/* HOUR_MS */.iQ;
    if (hours < 1)
        return 'under an hour';
    if (hours < 48) {
        const h = Math.round(hours);
        return `${h} ${h === 1 ? 'hour' : 'hours'}`;
    }
    const days = Math.round((hours / 24) * 10) / 10;
    return `${days} days`;
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/outcomes-by-repository.js

/**
 * The outcomes per code repository, for a docs project fed by several (`code-repositories`); none
 * for a project fed by one. A job whose changes come from several repositories counts once for each
 * of them, so the rows may add up to more than the total. Each row is counted as the total is, over
 * the jobs that document the repository; jobs and follow-ups started and credits are the project's
 * alone (a start is not tied to one repository), so they have no row.
 */
function outcomesByRepository(project, now) {
    const names = new Map();
    for (const [key, mark] of Object.entries(project.repositories ?? {}))
        names.set(key, mark.name);
    const jobsOf = new Map();
    const unnamed = [];
    for (const job of project.jobs) {
        const repositories = repositoriesOf(job);
        if (!repositories.length)
            unnamed.push(job);
        for (const name of repositories) {
            const key = name.toLowerCase();
            if (!names.has(key))
                names.set(key, name);
            jobsOf.set(key, [...(jobsOf.get(key) ?? []), job]);
        }
    }
    if (names.size < 2)
        return undefined;
    const rows = [...names].map(([key, name]) => {
        // The project's own counting over the jobs that document this repository, minus the figures
        // that are the project's alone.
        const { started: _started, creditsPerMerge: _credits, ...figures } = outcomes({ ...project, jobs: jobsOf.get(key) ?? [] }, now);
        return { name, figures };
    });
    rows.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
    const rest = outcomes({ ...project, jobs: unnamed }, now);
    return { rows, unnamed: rest.decided + rest.open + rest.drafts };
}
/** The code repositories a job documents, each once (case aside): listed changes' and cut ones'. */
function repositoriesOf(job) {
    const seen = new Map();
    for (const name of [...job.changes.map(c => c.repo), ...(job.moreRepositories ?? [])])
        if (name && !seen.has(name.toLowerCase()))
            seen.set(name.toLowerCase(), name);
    return [...seen.values()];
}

// EXTERNAL MODULE: ./.tmp/ncc-js/policy/code-repositories.js
var code_repositories = __webpack_require__(523);
;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/watermarks.js


/**
 * Watermarks of repositories `code-repositories` no longer lists, kept: a repository listed again,
 * or listed under its new name after a rename, goes on from where it was documented rather than
 * taking a first look. The newest few are kept; the ledger holds as many as may be listed besides.
 */
const MAX_LEFT = 10;
/**
 * A repository's watermark: under its name, or (after a rename) the one recorded under its old
 * name with the same GitHub node id.
 */
function watermarkOf(project, name, id) {
    const key = (0,code_repositories/* repositoryKey */.Kq)(name);
    const own = project.repositories?.[key];
    if (own)
        return { key, mark: own };
    if (!id)
        return undefined;
    const moved = Object.entries(project.repositories ?? {}).find(([, m]) => m.id === id);
    return moved && { key: moved[0], mark: moved[1] };
}
/**
 * Every name the ledger knows a repository by, as keys: the one listed now and, after a rename,
 * those its watermark (`mark`, watermarkOf's) was recorded under. The dashboard's jobs name each
 * change under the name it was sent under.
 */
function namesOf(name, mark) {
    const names = [name, ...(mark ? [mark.name, ...(mark.formerly ?? [])] : [])];
    return new Set(names.map(code_repositories/* repositoryKey */.Kq));
}
/**
 * A repository's watermark moves to `sha`, under its listed name, with its node id. Moved from
 * its old name after a rename, it keeps the names it had (`formerly`).
 */
function setWatermark(project, part, sha, at) {
    const marks = (project.repositories ??= {});
    const key = (0,code_repositories/* repositoryKey */.Kq)(part.name);
    const moved = part.id
        ? Object.entries(marks).filter(([k, mark]) => mark.id === part.id && k !== key)
        : [];
    const formerly = formerNames(key, moved.flatMap(([, mark]) => [mark.name, ...(mark.formerly ?? [])]), marks[key]?.formerly);
    marks[key] = {
        sha,
        at,
        name: part.name,
        branch: part.branch,
        ...(part.id ? { id: part.id } : {}),
        ...(formerly.length ? { formerly } : {})
    };
    // Read from now on under its new name: the record under its old one has done its work.
    for (const [old] of moved)
        delete marks[old];
    if (project.unread)
        delete project.unread[key];
}
/** The names a repository had, the latest first, once each, without the one it has (`key`). */
function formerNames(key, latest, earlier = []) {
    const byKey = new Map();
    for (const name of [...latest, ...earlier])
        if ((0,code_repositories/* repositoryKey */.Kq)(name) !== key && !byKey.has((0,code_repositories/* repositoryKey */.Kq)(name)))
            byKey.set((0,code_repositories/* repositoryKey */.Kq)(name), name);
    return [...byKey.values()].slice(0, MAX_FORMER_NAMES);
}
/**
 * After a write: the repositories the run listed but could not read, with no watermark, are noted
 * with the time they began to wait (kept from the first run that said so); those no longer listed
 * leave that list. The watermarks of repositories no longer listed are marked as left and kept,
 * the newest MAX_LEFT, so that their return takes up where they were.
 */
function settleListed(project, batch, at) {
    const listed = batch.listed && new Set(batch.listed);
    if (!listed)
        return;
    for (const name of batch.unread ?? []) {
        const key = (0,code_repositories/* repositoryKey */.Kq)(name);
        if (project.repositories?.[key] || !listed.has(key))
            continue;
        project.unread ??= {};
        project.unread[key] ??= { name, since: at };
    }
    for (const key of Object.keys(project.unread ?? {}))
        if (!listed.has(key))
            delete project.unread?.[key];
    if (project.unread && !Object.keys(project.unread).length)
        delete project.unread;
    const marks = project.repositories;
    if (!marks)
        return;
    for (const [key, mark] of Object.entries(marks)) {
        if (listed.has(key))
            delete mark.left;
        else
            mark.left ??= at;
    }
    const left = Object.entries(marks)
        .filter(([, m]) => m.left !== undefined)
        .sort((a, b) => (b[1].left ?? 0) - (a[1].left ?? 0));
    for (const [key] of left.slice(MAX_LEFT))
        delete marks[key];
}
/** The watermarks of the repositories listed now: what the dashboard shows. */
const listedWatermarks = (project) => Object.values(project.repositories ?? {}).filter(m => m.left === undefined);

// EXTERNAL MODULE: ./.tmp/ncc-js/runner/untrusted.js
var untrusted = __webpack_require__(3529);
;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/impact-table.js




// How the ledger's reader-impact figures read (before → after, the direction, too few to tell),
// on the dashboard and in the impact comment alike (impact/comment.ts).
/** Under this in both windows, a difference says nothing. */
const TOO_FEW = 10;
const shown = (n) => (n === null ? 'not known' : (0,runner_text/* formatCount */.B4)(n));
/** Both windows' counts are under TOO_FEW: a difference says nothing. */
const tooFew = (b, a) => b !== null && a !== null && b < TOO_FEW && a < TOO_FEW;
/**
 * ↑, ↓ or → with the difference; `too few to tell` when the counts behind it are few (by default,
 * under TOO_FEW in both windows; a rate is as few as the counts it divides).
 */
function direction(b, a, few = b !== null && a !== null && tooFew(b, a)) {
    if (b === null || a === null)
        return 'not known';
    if (few)
        return 'too few to tell';
    if (a === b)
        return '→ same';
    const diff = Math.round((a - b) * 10) / 10;
    const sign = diff > 0 ? '+' : '−';
    const pct = b > 0 ? ` (${sign}${Math.abs(Math.round((diff / b) * 100))}%)` : '';
    return `${a > b ? '↑' : '↓'} ${sign}${(0,runner_text/* formatCount */.B4)(Math.abs(diff))}${pct}`;
}
/** The one line said when the pages cannot be told, in the comment and on the dashboard. */
const unsureLine = (unsure) => `Not measured: ${(0,markdown/* escapeMarkdown */.FV)((0,untrusted/* stripInvisible */._0)(unsure).slice(0, 300))}, so which site pages its files are cannot be told; no analytics request was spent on it.`;
/** The one line said of a docs pull request that changed no site page, on the dashboard. */
const NO_PAGES_LINE = 'Not measured: it changed no site page; no analytics request was spent on it.';
/** A dashboard cell: `120 → 180 ↑`, or `3 → 1 (too few)`. */
function impactCell(impact, name) {
    const i = IMPACT_MEASURES.indexOf(name);
    const b = impact.before[i] ?? null;
    const a = impact.after[i] ?? null;
    if (b === null && a === null)
        return '–';
    const dir = direction(b, a);
    const arrow = dir === 'too few to tell' ? ' (too few)' : dir === 'not known' ? '' : ` ${dir.split(' ')[0]}`;
    return `${shown(b)} → ${shown(a)}${arrow}`;
}
/** The dashboard's "Reader impact" rows: one per measured docs pull request, the latest first. */
function renderImpactTable(jobs, label) {
    const measured = jobs.filter(j => j.prLink && j.impact).reverse();
    if (!measured.length)
        return [];
    return [
        '#### Reader impact of merged docs pull requests',
        '',
        `Equal windows before and after each merge (whole UTC days, the merge's day in neither); figures before → after; under ${TOO_FEW} in both is too few to tell.`,
        '',
        '| Docs pull request | Windows | Human views | Human visitors | Thumbs-down | Searches with no click | Unanswered questions |',
        '|---|---|---|---|---|---|---|',
        ...measured.map(j => {
            const impact = j.impact;
            const link = (0,markdown/* markdownLink */.iQ)(label(j.prLink), j.prLink);
            const comment = impact.commentUrl ? ` (${(0,markdown/* markdownLink */.iQ)('comment', impact.commentUrl)})` : '';
            if (impact.unsure)
                return `| ${link}${comment} | ${unsureLine(impact.unsure)} | – | – | – | – | – |`;
            if (impact.noPages)
                return `| ${link}${comment} | ${NO_PAGES_LINE} | – | – | – | – | – |`;
            return `| ${link}${comment} | ${impact.days} days each | ${impactCell(impact, 'humanViews')} | ${impactCell(impact, 'humanVisitors')} | ${impactCell(impact, 'thumbsDown')} | ${impactCell(impact, 'zeroClickSearches')} | ${impactCell(impact, 'unansweredQuestions')} |`;
        }),
        ''
    ];
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/dashboard-body.js









/** Mintlify's published average credits for a run that updates docs from code changes. */
const DEFAULT_CREDITS_PER_RUN = 180;
const SHOWN_JOBS = 10;
const SHOWN_CHANGES = 5;
const SHOWN_WAITING = 20;
/** The people's part of the body stays well under GitHub's 65,536 characters, beside the state. */
const MAX_BODY_CHARS = 36_000;
/** The dashboard as people read it: what the agent is doing for this repository, per project. */
function renderDashboard(ledger, view) {
    const lines = [
        'This issue is kept by the Mintlify agent action. It shows what the documentation agent is doing for this repository, and it is the record of which changes were handed to the agent: every run of the action updates it, and what you edit here is overwritten. Closing it hides it until the next run.',
        ''
    ];
    if (ledger.afresh)
        lines.push(afreshLine(ledger.afresh), '');
    const projects = Object.entries(ledger.projects);
    if (projects.length === 0)
        lines.push('Nothing yet.', '');
    for (const [id, project] of projects)
        lines.push(...renderProject(id, project, view));
    const text = lines.join('\n');
    return text.length > MAX_BODY_CHARS
        ? `${text.slice(0, MAX_BODY_CHARS)}\n\n… (cut: the rest did not fit in the issue)\n`
        : text;
}
/** The ledger started afresh: what the state before it held is lost, and where it can be read. */
function afreshLine(afresh) {
    const edit = afresh.by
        ? ` by @${(0,markdown/* escapeMarkdown */.FV)(afresh.by)}${afresh.at ? ` (${dashboard_body_when(afresh.at)})` : ''}`
        : '';
    const why = afresh.why === 'deleted'
        ? `deleted${edit}`
        : `edited by hand${edit}, or written with another API key`;
    return `> **This ledger started afresh**: the hidden state before it was ${why}. What it recorded is not carried over: the last documented commit, the budget's history, the changes that waited and the uncertain requests. Its last version is in this issue's edit history (the last version the action wrote${afresh.at ? ` before ${dashboard_body_when(afresh.at)}` : ''}): send what waited there with a prompt.`;
}
function renderProject(id, project, view) {
    const lines = [`### Project ${(0,markdown/* codeSpan */.SS)(id)}`, ''];
    const day = startsWithin(project.spend, duration/* DAY_MS */.sO, view.now);
    const week = startsWithin(project.spend, 7 * duration/* DAY_MS */.sO, view.now);
    const documented = project.documented
        ? `${commitLink(project.documented.sha, view)} · ${dashboard_body_when(project.documented.at)}`
        : 'none yet: the first change run documents its own change';
    const marks = Object.values(project.repositories ?? {});
    lines.push(...(marks.length && !project.documented ? [] : [`- **Last documented commit**: ${documented}`]), ...(project.backlog
        ? [
            `- **Beyond one run's bounds**: ${(0,runner_text/* counted */.hS)(project.backlog, 'more change')} after it ${project.backlog === 1 ? 'waits' : 'wait'}; the next runs (a merge, a push, a scheduled or manual catch-up) take them, oldest first`
        ]
        : []), `- **Jobs and follow-ups started**: ${(0,runner_text/* formatCount */.B4)(day)} in the last 24 hours, ${(0,runner_text/* formatCount */.B4)(week)} in the last 7 days`, ...renderBudget(project, view), '');
    lines.push(...renderWatermarks(project, view));
    lines.push(...renderOutcomes(project, view));
    lines.push(...renderOutcomesByRepository(project, view));
    lines.push(...renderKept(project));
    lines.push(...renderImpactTable(project.jobs, shortPull));
    const jobs = project.jobs.slice(-SHOWN_JOBS).reverse();
    const earlierJobs = (project.olderJobs ?? 0) + project.jobs.length - jobs.length;
    if (jobs.length) {
        lines.push('#### Docs pull requests and jobs', '', '| Docs pull request | Job | State | Changes in it |', '|---|---|---|---|', ...jobs.map(job => `| ${job.prLink ? (0,markdown/* markdownLink */.iQ)(shortPull(job.prLink), job.prLink) : 'not yet'} | ${(0,markdown/* codeSpan */.SS)(job.id)} | ${(0,markdown/* escapeMarkdown */.FV)(job.state)} | ${changeList(job.changes, job.moreChanges, view)} |`), ...(earlierJobs ? [`| | | | … and ${(0,runner_text/* formatCount */.B4)(earlierJobs)} earlier jobs |`] : []), '');
    }
    if (project.waiting && project.waiting.changes.length) {
        const { changes, why } = project.waiting;
        lines.push(`#### Waiting: ${(0,runner_text/* counted */.hS)(changes.length, 'change')}`, '', `${(0,markdown/* escapeMarkdown */.FV)(why)}`, '', ...approvalLines(project.waiting, approvalCost(project, view)), ...changes.slice(0, SHOWN_WAITING).map(c => `- ${changeLink(c, view)}`), ...(changes.length > SHOWN_WAITING ? [`- … and ${changes.length - SHOWN_WAITING} more`] : []), '');
    }
    const olderUncertain = project.olderUncertain ?? 0;
    if (project.uncertain.length || olderUncertain) {
        lines.push('#### Uncertain', '', "Each request below got no answer, or an answer that does not say whether the service acted on it (HTTP 500, 502 or 504, a time-out, a lost connection), so it may have started a job. The action does not send these changes again by itself: look for the job among the agent jobs on the Mintlify dashboard; if there is none, tick the request's box to send its changes again, once (ticking needs the workflow's `required-permission`, and a workflow that runs when the dashboard is edited, as for `approval: dashboard`).", '', ...project.uncertain.flatMap(u => [
            `- ${dashboard_body_when(u.at)}: ${u.what === 'follow-up' ? `follow-up to ${(0,markdown/* codeSpan */.SS)(u.job ?? '?')}` : 'a new job'} (${(0,markdown/* escapeMarkdown */.FV)(u.why)}) for ${changeList(u.changes, u.moreChanges ?? 0, view)}${u.moreChanges ? ` (the box sends the ${(0,runner_text/* counted */.hS)(u.changes.length, 'change')} kept; the ${(0,runner_text/* formatCount */.B4)(u.moreChanges)} more were not kept: send them with a prompt)` : ''}`,
            ...(u.id ? [resendBox(u.id)] : [])
        ]), 
        // Their changes and boxes left the ledger to keep it within its share: said, never hidden.
        ...(olderUncertain
            ? [
                `- … and ${(0,runner_text/* formatCount */.B4)(olderUncertain)} earlier uncertain requests, no longer listed: their changes were not sent again; look for their jobs on the Mintlify dashboard, and send what none documented with a prompt.`
            ]
            : []), '');
    }
    if (project.runs.length) {
        lines.push('#### Last runs', '', '| Run | Result | Job | Changes | Note |', '|---|---|---|---:|---|', ...[...project.runs]
            .reverse()
            .map(r => `| ${r.url ? (0,markdown/* markdownLink */.iQ)(dashboard_body_when(r.at), r.url) : dashboard_body_when(r.at)} | ${(0,markdown/* codeSpan */.SS)(r.result)} | ${r.job ? (0,markdown/* codeSpan */.SS)(r.job) : ''} | ${(0,runner_text/* formatCount */.B4)(r.changes)} | ${(0,markdown/* escapeMarkdown */.FV)(r.note)} |`), ...(project.olderRuns
            ? [`| | | | | … and ${(0,runner_text/* formatCount */.B4)(project.olderRuns)} earlier runs |`]
            : []), '');
    }
    return lines;
}
/** With `code-repositories`: each code repository's last documented commit, by name. */
function renderWatermarks(project, view) {
    // Those of repositories no longer listed are kept for their return, not shown.
    const marks = listedWatermarks(project).sort((a, b) => a.name.localeCompare(b.name));
    if (!marks.length)
        return [];
    return [
        '#### Code repositories',
        '',
        'Each run documents what each repository merged after its last documented commit.',
        '',
        '| Repository | Branch | Last documented commit | Since |',
        '|---|---|---|---|',
        ...marks.map(m => `| ${(0,markdown/* markdownLink */.iQ)(m.name, `${view.serverUrl}/${m.name}`)} | ${(0,markdown/* codeSpan */.SS)(m.branch)} | ${commitLink(m.sha, { ...view, repository: m.name })} | ${dashboard_body_when(m.at)} |`),
        ''
    ];
}
/**
 * What the policy file allows the project and what it used: each budget in its window (`max-jobs`,
 * `max-credits`), the credits the starts are estimated at, and how many docs pull requests may be
 * open at once (`max-open`). Without a budget the 30 days' starts and their estimate only.
 */
function renderBudget(project, view) {
    const limits = view.limits ?? { creditsPerRun: DEFAULT_CREDITS_PER_RUN };
    const perRun = (0,runner_text/* formatCount */.B4)(limits.creditsPerRun);
    const month = startsWithin(project.spend, 30 * duration/* DAY_MS */.sO, view.now);
    const states = budgetStates(project.spend, limits, view.now);
    return [
        ...(states.length
            ? states.map(state => `- **Budget**: ${budgetText(state, limits)}`)
            : ['- **Budget**: none set (the policy file’s `max-jobs` or `max-credits` sets one)']),
        `- **Credits used (estimate)**: about ${(0,runner_text/* formatCount */.B4)(month * limits.creditsPerRun)} in the last 30 days, at ${perRun} a run (\`credits-per-run\`: Mintlify publishes averages, the API reports no usage)`,
        `- **Open at once**: ${limits.maxOpen === undefined ? 'no limit (the policy file’s `max-open` sets one)' : `at most ${(0,runner_text/* counted */.hS)(limits.maxOpen, 'docs pull request')} (\`max-open: ${limits.maxOpen}\`; a running job counts)`}`
    ];
}
/** What ticking the waiting batch's box would cost, and the budget it would leave. */
function approvalCost(project, view) {
    const limits = view.limits ?? { creditsPerRun: DEFAULT_CREDITS_PER_RUN };
    const states = budgetStates(project.spend, limits, view.now);
    return {
        creditsPerRun: limits.creditsPerRun,
        ...(states.length ? { budget: states.map(state => budgetText(state, limits)).join('; ') } : {})
    };
}
/** What became of the agent's work over the last 30 days: figures only, no text from elsewhere. */
function renderOutcomes(project, view) {
    const perRun = view.limits?.creditsPerRun ?? DEFAULT_CREDITS_PER_RUN;
    const o = outcomes(project, view.now, perRun);
    if (!o.started && !o.decided && !o.open)
        return [];
    const acceptance = o.acceptance === undefined
        ? 'no decided pull request yet'
        : `${Math.round(o.acceptance * 100)}% (${(0,runner_text/* formatCount */.B4)(o.merged)} merged of ${(0,runner_text/* formatCount */.B4)(o.decided)} decided)`;
    const unread = o.merged - o.touchKnown - o.touchTooLong;
    const tooLong = o.touchTooLong
        ? `; ${(0,runner_text/* formatCount */.B4)(o.touchTooLong)} merged with more events than one read holds, not known`
        : '';
    const zeroTouch = o.touchKnown
        ? `${Math.round((o.zeroTouch / o.touchKnown) * 100)}% (${(0,runner_text/* formatCount */.B4)(o.zeroTouch)} of ${(0,runner_text/* formatCount */.B4)(o.touchKnown)} merged without a person's commit${unread ? `; ${(0,runner_text/* formatCount */.B4)(unread)} merged not read yet` : ''}${tooLong})`
        : 'no merged pull request read yet';
    return [
        '#### Outcomes, last 30 days',
        '',
        'Docs pull requests opened in the last 30 days, as last read from the docs repository (a few a run); jobs and follow-ups by the day they started.',
        '',
        `- **Jobs and follow-ups started**: ${(0,runner_text/* formatCount */.B4)(o.started)}`,
        `- **Docs pull requests**: ${(0,runner_text/* formatCount */.B4)(o.merged)} merged · ${(0,runner_text/* formatCount */.B4)(o.closed)} closed without merge · ${(0,runner_text/* formatCount */.B4)(o.expired)} expired · ${(0,runner_text/* formatCount */.B4)(o.open)} still open · ${(0,runner_text/* formatCount */.B4)(o.drafts)} open as drafts, counted apart`,
        `- **Accepted**: ${acceptance}: merged ÷ decided, where decided is merged + closed without merge + expired; open pull requests and drafts are not decided yet`,
        `- **Zero-touch**: ${zeroTouch}: merged without a person's commit ÷ merged whose commits were read (a person is anyone but the docs agent's identities and bots)`,
        `- **Median time from job start to merge**: ${o.medianToMerge === undefined ? 'no merged pull request yet' : `${hoursOrDays(o.medianToMerge)} (the middle of ${(0,runner_text/* formatCount */.B4)(o.merged)} merged)`}`,
        `- **Credits per merged docs pull request (estimate)**: ${o.creditsPerMerge === undefined ? 'no merged pull request yet' : `about ${(0,runner_text/* formatCount */.B4)(o.creditsPerMerge)}`} (an estimate, not a measure: every job and follow-up started, at ${(0,runner_text/* formatCount */.B4)(perRun)} credits a run ('credits-per-run'), ÷ merged; the API reports no usage)`,
        ''
    ];
}
/**
 * With several code repositories: the outcomes' figures per repository, counted as the total is,
 * over the docs pull requests that document its changes. Names link to the repository, escaped.
 */
function renderOutcomesByRepository(project, view) {
    const byRepository = outcomesByRepository(project, view.now);
    if (!byRepository?.rows.some(({ figures: f }) => f.decided || f.open || f.drafts))
        return [];
    const { rows, unnamed } = byRepository;
    return [
        '#### Outcomes per code repository, last 30 days',
        '',
        'Counted as the outcomes above, over the docs pull requests that document each repository’s changes. A docs pull request that documents changes from several repositories counts once for each of them, so the rows can add up to more than the total.',
        ...(unnamed
            ? [
                '',
                `${(0,runner_text/* counted */.hS)(unnamed, 'docs pull request')} whose changes name no repository (recorded before \`code-repositories\`) ${unnamed === 1 ? 'is' : 'are'} in no row.`
            ]
            : []),
        '',
        '| Repository | Merged | Closed | Expired | Open | Drafts | Accepted | Zero-touch | Median time to merge |',
        '|---|---:|---:|---:|---:|---:|---|---|---|',
        ...rows.map(({ name, figures: f }) => `| ${(0,markdown/* markdownLink */.iQ)(name, `${view.serverUrl}/${name}`)} | ${[f.merged, f.closed, f.expired, f.open, f.drafts].map(runner_text/* formatCount */.B4).join(' | ')} | ${repositoryCells(f)} |`),
        ''
    ];
}
/** A repository's acceptance, zero-touch rate and median time to merge, each with its counts. */
function repositoryCells(f) {
    const share = (part, whole, of, none) => whole
        ? `${Math.round((part / whole) * 100)}% (${(0,runner_text/* formatCount */.B4)(part)} of ${(0,runner_text/* formatCount */.B4)(whole)} ${of})`
        : none;
    return [
        share(f.merged, f.decided, 'decided', 'none decided yet'),
        share(f.zeroTouch, f.touchKnown, 'merged and read', 'no merge read yet'),
        f.medianToMerge === undefined ? 'no merge yet' : hoursOrDays(f.medianToMerge)
    ].join(' | ');
}
/** Docs pull requests `expire-after` keeps open, each with why: a person's work is on it. */
function renderKept(project) {
    const kept = project.jobs.filter(j => j.kept && j.prLink && STILL_OPEN.has(j.state));
    if (!kept.length)
        return [];
    return [
        '#### Kept open past expire-after',
        '',
        'Stale means nobody but the docs agent touched a docs pull request for longer than `expire-after`; these are not stale, and a person’s commit, approval, request for changes or keep label keeps one open for good.',
        '',
        ...kept
            .slice(-SHOWN_JOBS)
            .map(j => `- ${(0,markdown/* markdownLink */.iQ)(shortPull(j.prLink), j.prLink)}: ${(0,markdown/* escapeMarkdown */.FV)(j.kept?.why ?? '')} (as of ${dashboard_body_when(j.kept?.at ?? 0)})`),
        ''
    ];
}
const dashboard_body_when = (at) => at ? `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
const commitLink = (sha, view) => (0,markdown/* markdownLink */.iQ)(sha.slice(0, 7), `${view.serverUrl}/${view.repository}/commit/${sha}`);
function changeLink(change, view) {
    // In a docs project of several repositories a number alone is ambiguous: `acme/api#12`.
    const number = change.pr ? `#${change.pr}` : change.sha.slice(0, 7);
    const label = change.repo ? `${change.repo}${change.pr ? '' : '@'}${number}` : number;
    const url = change.url ?? `${view.serverUrl}/${change.repo ?? view.repository}/commit/${change.sha}`;
    return `${(0,markdown/* markdownLink */.iQ)(label, url)} ${(0,markdown/* escapeMarkdown */.FV)(change.title)}`;
}
function changeList(changes, more, view) {
    const shown = changes.slice(-SHOWN_CHANGES).map(c => changeLink(c, view));
    const rest = changes.length - shown.length + more;
    return [...shown, ...(rest > 0 ? [`and ${rest} more`] : [])].join(' · ');
}
/** `acme/docs#101` for a pull request URL; the URL itself otherwise. */
function shortPull(url) {
    const m = /\/([^/]+)\/([^/]+)\/pull\/(\d+)\/?$/.exec(url);
    return m ? `${m[1]}/${m[2]}#${m[3]}` : url;
}

// EXTERNAL MODULE: ./.tmp/ncc-js/runner/redact.js
var redact = __webpack_require__(1462);
;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/github-clock.js

/**
 * GitHub's clock as the dashboard's writes see it. GitHub stamps each edit of the dashboard on its
 * own clock, and the rollback check (dashboard-choice.ts) compares that stamp with the time the
 * state says it was written: so the state is stamped on GitHub's clock too, read from the `date` of
 * GitHub's answers, and not on the runner's, which may be minutes off.
 */
class GitHubClock {
    runnersNow;
    /** GitHub's clock minus the runner's (ms), as last read; 0 until an answer says. */
    offset = 0;
    constructor(runnersNow) {
        this.runnersNow = runnersNow;
    }
    /** GitHub's time now, as best known. */
    now() {
        return this.runnersNow() + this.offset;
    }
    /**
     * Reads GitHub's clock off an answer: its `date` is in whole seconds, so GitHub's time was within
     * the second after it (its middle is taken).
     */
    learn(answer) {
        if (answer.answeredAt !== undefined)
            this.offset = answer.answeredAt + 500 - this.runnersNow();
    }
    /**
     * GitHub recorded the write later than the state it holds says (a slow answer): a person's edit
     * after it would be taken for a restore, so the state is written once more. `updated_at` is in
     * whole seconds: the edit was made within the second after it.
     */
    recordedLate(answer, writtenAt) {
        if (answer.updatedAt === undefined || writtenAt === undefined)
            return false;
        return answer.updatedAt + 1000 > writtenAt + WRITE_SLACK_MS;
    }
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/dashboard.js










/**
 * A write that records a start is read back this long after (ms on the run's clock): a run that
 * read the dashboard just before it and wrote just after would have written over it. Two writes
 * of one token are a second apart (github/limits.ts), and an answer takes about as long. What a run
 * added is put back into another run's state that lacks it until a read this long after its write
 * showed it held (see `unsettled`).
 */
const CONFIRM_AFTER_MS = 3000;
/** Times such a write is made again when another run's write took it away. */
const CONFIRM_TRIES = 3;
/**
 * The `Docs agent dashboard` issue: found in one request by its label, created on first need,
 * written only by this action (its state is signed, see ledger.ts), and read again before each
 * write so that an overlapping run's write is kept: GitHub has no conditional write for an issue,
 * so each write is a compare-and-set by hand (read, merge what another run wrote since, write).
 */
class Dashboard {
    github;
    options;
    ledger;
    /** What the user should hear about the dashboard itself (reopened, started afresh). */
    notices = [];
    issue;
    body = '';
    checked = false;
    /** Its issue holds no state this action can read: what earlier runs recorded is unknown. */
    stateUnread = false;
    /** The issue was found again without its label: the label goes back on with the first write. */
    relabel = false;
    /** Who the action is, as GitHub named it when no dashboard was found: said when one is opened. */
    viewer = '';
    /** GitHub's clock, read off its answers: the state is stamped on it. */
    githubClock;
    /** The state this run last wrote or merged (stateKey): the body holding it holds all of this run's. */
    known;
    /**
     * Every state this run read or wrote (stateKey): one of them in the body again is a read GitHub
     * served before its copy caught up, or a person's restore (dashboard-choice.ts judges those on the
     * next run), never a new state of another run's to merge.
     */
    seen = new Set();
    /**
     * What this run added (jobs, run entries, starts), by project, with when its write was answered
     * (the run's clock): put back into another run's state that lacks it (mergedLedger), until a read
     * at least CONFIRM_AFTER_MS after that write showed it held. Only what the run added is put back:
     * what another run's fit moved into the counts of older runs and jobs stays there.
     */
    unsettled = [];
    redactor;
    constructor(github, options, ledger) {
        this.github = github;
        this.options = options;
        this.ledger = ledger;
        this.redactor = new redact/* Redactor */.pO(options.secrets);
        this.githubClock = new GitHubClock(options.now);
    }
    get url() {
        return this.issue?.url;
    }
    /** The issue's number, once found or created. */
    get number() {
        return this.issue?.number;
    }
    /** The body as last read from GitHub or written: what people see, their ticks included. */
    get text() {
        return this.body;
    }
    /**
     * The ledger of the repository: from the newest state this action wrote, in an issue it opened
     * (see dashboard-choice.ts): among the labelled issues and the action's own issues of the
     * dashboard's title, always both (two requests), as a label can be moved by anyone with triage
     * rights: off the current dashboard, back onto a stale one or onto another issue.
     */
    static async open(github, options) {
        const [owner = '', repo = ''] = options.view.repository.split('/');
        let choice;
        let viewer;
        const notices = [];
        try {
            const labelled = await labelledIssues(github.graphql, { owner, repo }, DASHBOARD_LABEL);
            viewer = labelled.viewer ?? '';
            if (!viewer)
                throw new errors/* ExplainedError */.hM(`GitHub did not say who 'github-token' is, so the docs agent dashboard cannot be told from a copy and nothing was started.`);
            const ctx = {
                signer: options.signer,
                repository: options.view.repository,
                viewer,
                label: DASHBOARD_LABEL,
                title: options.title
            };
            const withEdits = (issues) => withWritersEdits(github.graphql, { owner, repo }, issues, ctx);
            const labelledFound = await withEdits(labelled.issues);
            let own;
            try {
                const authored = await authoredIssues(github.graphql, { owner, repo }, options.title, viewer);
                // Those found by their label too are read already.
                own = await withEdits(authored.filter(i => !labelledFound.some(l => l.number === i.number)));
            }
            catch (error) {
                // GitHub's search can fail or lag: with the labelled dashboard found and verified, the
                // run goes on with it, saying what it could not look for.
                const found = chooseDashboard(labelledFound, ctx);
                if (!found.issue || found.stateUnread || found.relabel)
                    throw error;
                notices.push(`Could not search ${options.view.repository} for the dashboard by its author and title (${(0,api/* describeGitHubError */.dZ)(error)}): the labelled dashboard ${found.issue.url} is used. A dashboard whose label was taken off is looked for again on the next run.`);
                own = [];
            }
            choice = chooseDashboard([...labelledFound, ...own], ctx);
        }
        catch (error) {
            if (error instanceof errors/* ExplainedError */.hM)
                throw error;
            throw dashboardError('read', error, options);
        }
        const dashboard = new Dashboard(github, options, choice.ledger);
        dashboard.notices.push(...notices, ...choice.notices);
        if (choice.issue)
            dashboard.adopt(choice.issue);
        dashboard.relabel = choice.relabel;
        dashboard.viewer = viewer;
        dashboard.stateUnread = choice.stateUnread ?? false;
        if (choice.lost)
            if (options.warn)
                options.warn(choice.lost.warning);
            else
                dashboard.notices.push(choice.lost.warning);
        if (choice.issue && !choice.stateUnread)
            dashboard.know(choice.ledger);
        return dashboard;
    }
    adopt(issue) {
        this.issue = issue;
        this.body = issue.body;
        this.githubClock.learn(issue);
    }
    /** This project's part of the ledger as last read (a copy: changes go through `write`). */
    project(projectId) {
        return structuredClone(this.ledger.projects[projectId] ?? emptyProject());
    }
    /**
     * Makes sure the dashboard can be written before anything is started: creates it, or reopens it
     * when closed by hand, or writes its title unchanged, which also reads its latest body. Without
     * `issues: write` the run stops here, having started nothing.
     */
    async ensureWritable() {
        if (this.checked)
            return;
        try {
            if (!this.issue)
                await this.create();
            else {
                const reopen = this.issue.state !== 'open';
                if (reopen)
                    this.notices.push(`The dashboard ${this.issue.url} was closed; it is reopened with its state.`);
                const labels = this.labelsBack();
                this.absorb(await this.github.updateIssue(this.issue.number, {
                    title: this.issue.title,
                    ...(reopen ? { state: 'open' } : {}),
                    ...labels
                }));
                this.relabel = false;
            }
        }
        catch (error) {
            throw dashboardError('write', error, this.options);
        }
        this.checked = true;
    }
    /**
     * Changes this project's part and writes the dashboard, as a compare-and-set: the newest body is
     * read first (a read, no write), another run's state written since this run's last read or write
     * is taken as the base, with what this run added put back where it lacks it (mergedLedger), and
     * the change is made to that. With `confirm` (a write that records a start, which `max-jobs`
     * counts), the body is read again a moment later: a run that read just before this write and
     * wrote just after took it away, so the change is made again to that run's state and written, a
     * few times at most. The change may thus be made more than once, each time to a fresh copy: it
     * takes its times and ids from outside, never makes them. A box of a batch still waiting that
     * someone ticked in the body last read stays ticked (its own run judges it), unless `untick` (a
     * refused tick undone).
     */
    async write(projectId, change, { untick = false, confirm = false } = {}) {
        try {
            if (!this.issue) {
                const added = this.changed(projectId, change);
                await this.create();
                this.checked = true;
                this.unsettle(projectId, added);
                return;
            }
            const number = this.issue.number;
            // GitHub documents no read-after-write guarantee for its REST API: this read may be served
            // before a write made just before it shows (a run's own, or another run's). A state this run
            // read or wrote already is never merged as new (`seen`), so such a read costs nothing but
            // that write's being merged on the next read; the read back below, CONFIRM_AFTER_MS later,
            // relies on GitHub showing a write by then, as its own answers to the write do at once.
            this.absorb(await this.github.getIssue(number));
            let before = this.ledger;
            let added = this.changed(projectId, change);
            await this.put(number, untick);
            this.unsettle(projectId, added);
            const sleep = this.options.sleep;
            for (let tries = 0; confirm && sleep && tries < CONFIRM_TRIES; tries++) {
                // Written already: a cancel during the pause only ends the check.
                if (!(await sleep(CONFIRM_AFTER_MS).then(() => true, () => false)))
                    break;
                const latest = await this.github.getIssue(number);
                const state = this.stateOf(latest);
                // This run's own state; or another run's that holds some of what this write added (it
                // read it first), which is taken as any other.
                if (!state?.fresh || !holdsNone(state.ledger.projects[projectId], added)) {
                    this.absorb(latest, state);
                    break;
                }
                this.adopt(latest);
                const theirs = state.ledger;
                // Another run wrote over this write, from what it read before it: this run's change is
                // made again to that run's state, with what this run added before put back.
                this.unsettled.pop();
                this.ledger = mergedLedger(theirs, before, this.unsettledItems());
                this.know(theirs);
                before = this.ledger;
                added = this.changed(projectId, change);
                await this.put(number, untick);
                this.unsettle(projectId, added);
            }
        }
        catch (error) {
            throw dashboardError('write', error, this.options);
        }
    }
    /** The change made to a copy of the ledger, which becomes the ledger: what it added. */
    changed(projectId, change) {
        const next = structuredClone(this.ledger);
        const before = structuredClone(next.projects[projectId]);
        const project = (next.projects[projectId] ??= emptyProject());
        change(project);
        this.ledger = next;
        return addedItems(before, project);
    }
    /** What a write added, kept until a later read shows it held (see `unsettled`). */
    unsettle(project, items) {
        if (!noneAdded(items))
            this.unsettled.push({ project, items, at: this.options.now() });
    }
    /** Everything this run added that no read has shown held yet, by project. */
    unsettledItems() {
        const items = {};
        for (const u of this.unsettled)
            items[u.project] = joinedItems(items[u.project] ?? noItems(), u.items);
        return items;
    }
    /**
     * Writes the body: the page and the state rendered anew for each attempt GitHub's client sends
     * (after a rate limit's wait, the state says when it reached GitHub), and once more when GitHub
     * recorded it later than that all the same (a slow answer). A label put back goes with every
     * attempt, and is known to be back once one was answered.
     */
    async put(number, untick) {
        const ticked = untick ? [] : tickedBatches(this.body);
        const resends = untick ? [] : tickedResends(this.body);
        const labels = this.labelsBack();
        const body = () => ({
            body: keepTicks(this.render(number), ticked, resends),
            ...labels
        });
        let answer = await this.github.updateIssue(number, body);
        this.adopt(answer);
        this.relabel = false;
        if (this.githubClock.recordedLate(answer, this.ledger.writtenAt)) {
            answer = await this.github.updateIssue(number, body);
            this.adopt(answer);
        }
        this.know(this.ledger);
    }
    /**
     * Opens the dashboard: the issue first, with the page but no state, as the state names the issue
     * it is written in (a copy elsewhere is refused), then the state.
     */
    async create() {
        const now = this.options.now();
        this.ledger = this.redactor.value(this.ledger);
        const created = await this.github.createIssue(this.options.title, renderDashboard(this.ledger, { ...this.options.view, now }), [DASHBOARD_LABEL]);
        if (!created.labels.includes(DASHBOARD_LABEL))
            this.notices.push(`GitHub created the dashboard ${created.url} without its label '${DASHBOARD_LABEL}'; the next run finds it by its author and title, but give the workflow 'issues: write'.`);
        this.adopt(created);
        await this.put(created.number, false);
        // A dashboard deleted, or transferred to another repository, cannot be found: an empty one
        // replaces it, which is never done silently.
        this.notices.push(`No docs agent dashboard was found (no issue labelled '${DASHBOARD_LABEL}', and none titled '${this.options.title}' opened by @${this.viewer || 'this action'}, open or closed): ${created.url} is opened with an empty ledger, and the budget ('max-jobs', 'max-credits') counts from here. If an earlier dashboard was deleted or transferred to another repository, what waited there and its last documented commit are not carried over: send those changes with a prompt, or transfer it back and delete the hidden state of ${created.url} (the last HTML comment of its body).`);
    }
    /**
     * The label put back, with its other labels, on a dashboard found again without it; reopened
     * when it was closed too, so that its boxes can be ticked.
     */
    labelsBack() {
        if (!this.relabel || !this.issue)
            return {};
        return {
            labels: [...this.issue.labels, DASHBOARD_LABEL],
            ...(this.issue.state === 'open' ? {} : { state: 'open' })
        };
    }
    /**
     * The newest body's state, verified as written in this issue: `fresh` when it is another run's
     * new state, neither one this run wrote nor one it read before (`seen`). A state a newer version
     * of the action wrote meanwhile is never written over: the run stops.
     */
    stateOf(latest) {
        const read = readDashboardState(latest.body, this.options.signer, this.options.view.repository, latest.number);
        if (!read.ok && read.why === 'newer')
            throw newerLedger(latest.url, read.format, ', and this run records nothing there');
        if (!read.ok)
            return undefined;
        return { ledger: read.ledger, fresh: !this.seen.has(stateKey(read.ledger)) };
    }
    /**
     * Takes the newest body. Another run's new state is the base, with what this run added put back
     * where it lacks it (mergedLedger only adds). What this run added is settled once a read at least
     * CONFIRM_AFTER_MS after its write shows it held, in this run's own state or in another run's.
     */
    absorb(latest, state = this.stateOf(latest)) {
        this.adopt(latest);
        if (!state)
            return;
        const theirs = state.fresh ? state.ledger : undefined;
        const holding = theirs ?? (stateKey(state.ledger) === this.known ? this.ledger : undefined);
        if (!holding)
            return;
        const now = this.options.now();
        this.unsettled = this.unsettled.filter(u => now - u.at < CONFIRM_AFTER_MS ||
            !noneAdded(lackedItems(holding.projects[u.project], u.items)));
        if (!theirs)
            return;
        this.ledger = mergedLedger(theirs, this.ledger, this.unsettledItems());
        this.know(theirs);
    }
    /** A state this run wrote or merged: the one the body holds as far as this run knows. */
    know(ledger) {
        this.known = stateKey(ledger);
        this.seen.add(this.known);
    }
    /** The body: the page, and the state stamped with its issue, its next version and the time. */
    render(issue) {
        const now = this.options.now();
        // Before it is signed: the state and the page say the same, with no secret in either; and
        // fitted as written, so that what it holds is what the next read is compared with.
        this.ledger = fitLedger(this.redactor.value(this.ledger), now);
        this.ledger.issue = issue;
        this.ledger.version = (this.ledger.version ?? 0) + 1;
        // On GitHub's clock, which stamps the edit: see github-clock.ts.
        this.ledger.writtenAt = Math.max(this.githubClock.now(), (this.ledger.writtenAt ?? 0) + 1);
        this.ledger.write = (0,external_node_crypto_.randomBytes)(9).toString('base64url');
        // Who writes it: earlier tokens' identities stay (their edits are the action's), this one last.
        const viewer = this.viewer;
        if (viewer)
            this.ledger.writers = [
                ...(this.ledger.writers ?? []).filter(w => !sameActor(w, viewer)),
                viewer
            ].slice(-MAX_WRITERS);
        const record = ledgerRecord(this.ledger, this.options.signer, dashboardPlace(this.options.view.repository, issue), now);
        return withinIssueBody(renderDashboard(this.ledger, { ...this.options.view, now }), record);
    }
}
/**
 * The issues, with more of their edits read where the rollback check needs the action's newest
 * write and the edits first read hold none (see needsOlderEdits): one request or a few per such
 * issue, none in the usual case.
 */
async function withWritersEdits(graphql, where, issues, ctx) {
    const read = [];
    for (const issue of issues) {
        const byAction = needsOlderEdits(issue, ctx);
        read.push(byAction ? await withOlderEdits(graphql, where, issue, byAction) : issue);
    }
    return read;
}
/** Tells states apart: each write of the action gives its state a new version, time and mark. */
const stateKey = (ledger) => `${ledger.version ?? 0}/${ledger.writtenAt ?? 0}/${ledger.write ?? ''}`;
/** GitHub refuses an issue body over 65,536 characters (422): the whole write would be lost. */
const MAX_ISSUE_BODY = 65_536;
const CUT_NOTE = '\n\n… The rest of this page is cut to keep the dashboard within the 65,536 characters GitHub allows an issue body; the state below is whole.';
/**
 * The page and the signed state as one body within GitHub's limit: the state is already fitted
 * (fitLedger), so a page too long (hostile titles, a long history) is cut, never the state.
 */
function withinIssueBody(page, record) {
    const body = `${page}\n${record}`;
    if (body.length <= MAX_ISSUE_BODY)
        return body;
    const room = Math.max(0, MAX_ISSUE_BODY - record.length - CUT_NOTE.length - 1);
    const cut = page.slice(0, room);
    // At a line's end: no Markdown link or table row is left half open.
    const atLine = cut.lastIndexOf('\n');
    return `${atLine > 0 ? cut.slice(0, atLine) : cut}${CUT_NOTE}\n${record}`;
}
/**
 * Why the dashboard could not be read or written, named as GitHub failed (github/failure.ts): only
 * a refusal asks for `issues: write`, Issues turned off asks to turn them on, an outage or a rate
 * limit to run again later. A cancel says so; any other error (not GitHub's) is itself.
 */
function dashboardError(what, error, { view, withoutLedger, signal }) {
    if (error instanceof NewerLedgerError)
        return error;
    if (error instanceof errors/* CancelledError */.cc || signal?.aborted)
        return new errors/* CancelledError */.cc(`Cancelled while ${what === 'read' ? 'reading' : 'writing'} the docs agent dashboard issue.`);
    if (!(0,api/* fromGitHub */.Eu)(error))
        return error;
    // GitHub asked for a wait the step cannot give, and says so.
    if (error instanceof api/* RateLimitError */.OE)
        return new errors/* ExplainedError */.hM(`Could not ${what} the docs agent dashboard issue, so nothing was started: ${error.message}`);
    const or = withoutLedger ? `, or ${withoutLedger}` : '';
    const advice = (0,api/* whatToDo */.H6)(error, {
        refused: `Give the workflow 'issues: write'${or}.`,
        disabled: `Issues are turned off in ${view.repository}, where the dashboard keeps the ledger: turn them on in its settings (Settings → General → Features → Issues)${or}.`
    });
    return new errors/* ExplainedError */.hM(`Could not ${what} the docs agent dashboard issue (${(0,api/* gitHubFailure */.o7)(error).why}), which records what was handed to the agent, so nothing was started.${advice ? ` ${advice}` : ''}`);
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/ledger-session.js





/** The changes of a batch as the ledger keeps them: the commit, the pull request, a short title. */
function changeRefs(batch) {
    return [
        ...batch.pulls.map(p => ({
            sha: p.mergeCommit ?? '',
            pr: p.number,
            title: ledgerTitle(p.title),
            url: p.url,
            ...(p.repository ? { repo: p.repository } : {})
        })),
        ...batch.commits.map(c => ({
            sha: c.sha,
            title: ledgerTitle(c.message.split('\n')[0] ?? ''),
            ...(c.repository ? { repo: c.repository } : {})
        }))
    ];
}
/**
 * The run other than `runId` that covered `head` already (GitHub delivered the event again). A run
 * that left its changes waiting covered nothing: a later run (a tick, a schedule) takes them.
 */
function coveringRun(project, head, runId) {
    return project.runs.find(r => r.head === head && r.run !== runId && r.result !== 'waiting');
}
/**
 * One run's dealings with the ledger: what it reads before deciding, and what it writes once the
 * service has accepted a write (never before), so that an overlapping run sees it at once.
 */
class LedgerSession {
    dashboard;
    projectId;
    run;
    now;
    limits;
    /** What a fold decision learnt of an earlier job, written with the run's next write. */
    seen;
    /** What other reads learnt of the ledger's jobs (`max-open`), written with the run's next write. */
    updates = [];
    /** Who ticked the batch this run hands over (`approval: dashboard`): named in its run entry. */
    approvedBy;
    /**
     * The uncertain entries whose changes this run sends again (their boxes ticked): they leave the
     * ledger once sent, and the last documented commit and the waiting batch stay as they are.
     */
    resending;
    constructor(dashboard, projectId, run, now, limits) {
        this.dashboard = dashboard;
        this.projectId = projectId;
        this.run = run;
        this.now = now;
        this.limits = limits;
        const read = dashboard.project(projectId);
        this.documentedAtStart = {
            sha: read.documented?.sha,
            repositories: Object.fromEntries(Object.entries(read.repositories ?? {}).map(([key, mark]) => [key, mark.sha]))
        };
    }
    /**
     * The last documented commit this run read its batch from: the only one its head is known to be
     * ahead of (or, on a rewritten history, to replace).
     */
    documentedAtStart;
    /** The changes of the uncertain entries this run sends again. */
    resent() {
        const ids = this.resending ?? [];
        return this.project.uncertain.filter(u => u.id && ids.includes(u.id)).flatMap(u => u.changes);
    }
    /** The project's part as read at the start. */
    get project() {
        return this.dashboard.project(this.projectId);
    }
    get notices() {
        return this.dashboard.notices;
    }
    get url() {
        return this.dashboard.url;
    }
    /** The entry an earlier attempt of this run's step left, with the job it started. */
    earlierAttempt() {
        return [...this.project.runs]
            .reverse()
            .find(r => r.run === this.run.id && r.step === this.run.step && r.job);
    }
    /** A run before this one covered `head` already (see coveringRun). */
    coveredBy(head) {
        return coveringRun(this.project, head, this.run.id);
    }
    /** The budget that binds first (`max-jobs`, `max-credits`), or none when the policy sets none. */
    budgetState() {
        return tightest(budgetStates(this.project.spend, this.limits, this.now()));
    }
    /** Where every budget stands, in one line; none without a budget. */
    budgetSummary() {
        return budgetSummary(this.project.spend, this.limits, this.now());
    }
    ensureWritable() {
        return this.dashboard.ensureWritable();
    }
    /** Keeps what the fold decision learnt of an earlier job for the next write. */
    noteSeen(seen) {
        this.seen = seen;
    }
    /** Keeps what reads of the ledger's jobs learnt (`max-open`) for the next write. */
    noteUpdates(updates) {
        this.updates.push(...updates);
    }
    /** What the dashboard records of the job a batch is handed over to. */
    recorderFor(batch) {
        return {
            accepted: (job, followUp) => this.accepted(job, batch, followUp),
            uncertain: (followUp, why, jobId) => this.uncertain(batch, followUp ? 'follow-up' : 'new-job', why, jobId),
            finished: (job, result) => this.finished(job, result)
        };
    }
    /** The service accepted a new job or a follow-up: the changes are handed over. */
    async accepted(job, batch, followUp) {
        const at = this.now();
        const changes = changeRefs(batch);
        await this.dashboard.write(this.projectId, project => {
            this.handedOver(project, batch, at);
            (0,starts/* noteStart */.PI)(project, at);
            this.markSeen(project);
            const known = project.jobs.find(j => j.id === job.id);
            if (followUp && known) {
                known.changes.push(...changes);
                known.state = job.status === 'active' ? 'active' : known.state;
            }
            else
                project.jobs.push({
                    id: job.id,
                    prLink: job.prLink ?? undefined,
                    state: job.status === 'active' ? 'active' : 'started',
                    startedAt: at,
                    changes,
                    moreChanges: 0
                });
            project.runs.push(this.entry(at, batch, followUp ? 'follow-up sent' : 'job started', job.id, this.approvedBy ? `approved by @${this.approvedBy}` : ''));
        }, 
        // It records a start: read back, so that no overlapping run's write takes it away.
        { confirm: true });
    }
    /**
     * A job or follow-up an issue started: a person's request, never held back by the budget, but it
     * counts against it. Issue jobs are not listed for folding: their docs pull request stays theirs.
     */
    async counted(job, followUp, note) {
        const at = this.now();
        await this.dashboard.write(this.projectId, project => {
            (0,starts/* noteStart */.PI)(project, at);
            project.runs.push({
                at,
                url: this.run.url,
                run: this.run.id,
                step: this.run.step,
                result: followUp ? 'follow-up sent' : job ? 'job started' : 'uncertain',
                job: job?.id,
                changes: 0,
                note: note.slice(0, 300)
            });
        }, { confirm: true });
    }
    /**
     * What this run read of the ledger's docs pull requests (merged, closed, still open) and which
     * it closed for `expire-after`: an expired one is no longer folded into.
     */
    async docsPullsSeen(updates, expired, note) {
        if (!updates.length)
            return;
        const at = this.now();
        await this.dashboard.write(this.projectId, project => {
            applyUpdates(project, updates);
            if (expired.length)
                project.runs.push({
                    at,
                    url: this.run.url,
                    run: this.run.id,
                    step: this.run.step,
                    result: 'expired',
                    changes: 0,
                    note: note.slice(0, 300)
                });
        });
    }
    /** The answer to a write never came: it may have started a job, so it is not sent again by itself. */
    async uncertain(batch, what, why, jobId) {
        const at = this.now();
        await this.dashboard.write(this.projectId, project => {
            this.handedOver(project, batch, at);
            (0,starts/* noteStart */.PI)(project, at);
            const id = newBatchId(at);
            project.uncertain.push(keptUncertain({ id, at, what, job: jobId, changes: changeRefs(batch), why }));
            project.runs.push(this.entry(at, batch, 'uncertain', jobId, why));
        }, { confirm: true });
    }
    /** The run ended: what became of the job, for people and for the next fold. */
    async finished(job, result) {
        await this.dashboard.write(this.projectId, project => {
            const known = project.jobs.find(j => j.id === job.id);
            if (known) {
                if (job.prLink)
                    known.prLink = job.prLink;
                known.state =
                    job.status === 'active'
                        ? 'active'
                        : job.status === 'completed' && job.prLink
                            ? 'open'
                            : (job.status ?? known.state);
            }
            const entry = [...project.runs].reverse().find(r => r.run === this.run.id && r.job === job.id);
            if (entry)
                entry.result = result;
        });
    }
    /**
     * A run that hands nothing over still records what it decided: the changes it found nothing to
     * document in (the last documented commit moves past them), or the changes that wait.
     */
    async recordDecision(decision) {
        const at = this.now();
        const { batch } = decision;
        await this.dashboard.write(this.projectId, project => {
            if (decision.base && !project.documented)
                project.documented = { sha: decision.base, at };
            // Changes sent again that must wait (a limit) stay uncertain, their boxes unticked.
            if (!decision.waiting)
                this.handedOver(project, batch, at);
            else if (!this.resending)
                project.waiting = {
                    ...keptApproval(project.waiting),
                    changes: changeRefs(batch),
                    why: decision.waiting,
                    since: at,
                    ...decision.approval
                };
            if (decision.waiting && !this.resending) {
                noteBacklog(project, batch);
                markFirstSeen(project, batch, at);
            }
            this.markSeen(project);
            project.runs.push(this.entry(at, batch, decision.result, undefined, decision.note));
        }, { untick: Boolean(decision.waiting && this.resending) });
    }
    /** A tick on the dashboard that started nothing (refused, or on a batch that no longer waits). */
    async recordTick(result, note) {
        const at = this.now();
        await this.dashboard.write(this.projectId, project => {
            project.runs.push({
                at,
                url: this.run.url,
                run: this.run.id,
                step: this.run.step,
                result,
                changes: 0,
                note: note.slice(0, 300)
            });
        }, { untick: true });
    }
    /**
     * The batch is handed over (accepted, or perhaps): the last documented commit moves to its head
     * and the waiting changes, which were in it, no longer wait, nor does their approval. A batch sent
     * again from uncertain entries leaves both alone and takes those entries off instead: once.
     */
    handedOver(project, batch, at) {
        const resent = this.resending;
        if (resent) {
            project.uncertain = afterResend(project, resent, batch, at);
            return;
        }
        markDocumented(project, batch, at, this.documentedAtStart);
        project.waiting = null;
        noteBacklog(project, batch);
    }
    /** What a fold decision learnt of an earlier job (its docs pull request merged, say). */
    markSeen(project) {
        applyUpdates(project, this.updates);
        const seen = this.seen;
        const known = seen && project.jobs.find(j => j.id === seen.jobId);
        if (!known || !seen)
            return;
        known.state = seen.state;
        if (seen.prLink)
            known.prLink = seen.prLink;
        if (seen.prCreatedAt)
            known.prCreatedAt = seen.prCreatedAt;
        if (seen.endedAt)
            known.endedAt = seen.endedAt;
    }
    entry(at, batch, result, job, note = '') {
        return {
            at,
            url: this.run.url,
            run: this.run.id,
            step: this.run.step,
            head: batch.head || undefined,
            result,
            job,
            changes: batch.pulls.length + batch.commits.length,
            note: [note, leftOut(batch)].filter(Boolean).join('; ').slice(0, 300)
        };
    }
}
/**
 * The uncertain entries after their changes were sent again: of a docs project's entry, the changes
 * this run handed over or left out by a rule leave it; those of a repository it could not read, or
 * that the prompt had no room for, stay under a new box (unticked) for a later run. A repository
 * read with none of its changes handled (pull requests GitHub no longer has) gives its up.
 */
function afterResend(project, resent, batch, at) {
    // An entry names its changes as they were sent: a repository renamed since is read under its
    // new name, and each name its watermark knows it by is that repository.
    const alias = new Map();
    for (const part of batch.parts ?? []) {
        const mark = watermarkOf(project, part.name, part.id)?.mark;
        for (const name of namesOf(part.name, mark))
            alias.set(name, (0,code_repositories/* repositoryKey */.Kq)(part.name));
    }
    const keyOf = (repo) => {
        const key = (0,code_repositories/* repositoryKey */.Kq)(repo ?? '');
        return alias.get(key) ?? key;
    };
    const read = batch.parts && new Set(batch.parts.map(p => (0,code_repositories/* repositoryKey */.Kq)(p.name)));
    const handled = new Set([
        ...batch.pulls.map(p => `${keyOf(p.repository)}#${p.number}`),
        ...batch.commits.map(c => `${keyOf(c.repository)}@${c.sha}`),
        ...batch.skipped.map(s => s.sha)
    ]);
    const isHandled = (c) => handled.has(c.sha) ||
        handled.has(c.pr === undefined ? `${keyOf(c.repo)}@${c.sha}` : `${keyOf(c.repo)}#${c.pr}`);
    return project.uncertain.flatMap(entry => {
        if (!entry.id || !resent.includes(entry.id))
            return [entry];
        if (!read)
            return [];
        const progressed = new Set(entry.changes.filter(c => c.repo && isHandled(c)).map(c => keyOf(c.repo)));
        const left = entry.changes.filter(c => {
            if (!c.repo)
                return false;
            const key = keyOf(c.repo);
            return !read.has(key) || (progressed.has(key) && !isHandled(c));
        });
        if (!left.length)
            return [];
        return [{ ...entry, id: newBatchId(at), changes: left }];
    });
}
/**
 * The batch is handed over (or held nothing to document): the last documented commit moves to its
 * head; in a docs project of several repositories, each repository read moves to its own. One that
 * another run moved while this one ran stays where that run put it: this head is not known to be
 * ahead of it, and a watermark never moves backwards.
 */
function markDocumented(project, batch, at, start) {
    const unmoved = (current, read) => current === undefined || current === read;
    if (!batch.parts) {
        if (unmoved(project.documented?.sha, start.sha))
            project.documented = { sha: batch.head, at };
        return;
    }
    for (const part of batch.parts) {
        const current = watermarkOf(project, part.name, part.id);
        const key = current?.key ?? (0,code_repositories/* repositoryKey */.Kq)(part.name);
        if (unmoved(current?.mark.sha, start.repositories[key]))
            setWatermark(project, part, part.head, at);
    }
    settleListed(project, batch, at);
}
/**
 * The batch waits: no watermark moves, but a repository seen for the first time gets the one its
 * range starts after, so that the next run reads the same range and the changes after it.
 */
function markFirstSeen(project, batch, at) {
    if (!batch.parts)
        return;
    for (const part of batch.parts) {
        const from = part.base ?? part.start;
        if (!watermarkOf(project, part.name, part.id) && from)
            setWatermark(project, part, from, at);
    }
    settleListed(project, batch, at);
}
/** What reads learnt of the ledger's jobs: state, docs pull request and its times. */
function applyUpdates(project, updates) {
    for (const update of updates) {
        const known = project.jobs.find(j => j.id === update.jobId);
        if (!known)
            continue;
        known.state = update.state;
        if (update.prLink)
            known.prLink = update.prLink;
        if (update.prCreatedAt)
            known.prCreatedAt = update.prCreatedAt;
        if (update.endedAt)
            known.endedAt = update.endedAt;
        if (update.checkedAt)
            known.checkedAt = update.checkedAt;
        noteTouch(known, update);
    }
}
/** How many changes the batch's run left beyond its bounds, for the next runs and the dashboard. */
function noteBacklog(project, batch) {
    if (batch.backlog)
        project.backlog = batch.backlog;
    else
        delete project.backlog;
}
/** What a read learnt of people's work on the docs pull request: draft, a person's commit, kept open. */
function noteTouch(known, update) {
    if (update.draft)
        known.draft = true;
    else if (update.draft === false)
        delete known.draft;
    if (update.personCommitted !== undefined)
        known.personCommitted = update.personCommitted;
    if (update.touchUnread)
        known.touchUnread = true;
    if (update.kept)
        known.kept = update.kept;
    // The first one read stays: a later first commit may be a person's rebase or squash.
    if (update.agentEmail && !known.agentEmail)
        known.agentEmail = update.agentEmail;
}
/** A waiting batch's identity and approval stay while later changes join it. */
function keptApproval(waiting) {
    if (!waiting?.batch)
        return {};
    const { batch, approvedBy, approvedAt, wouldDo } = waiting;
    return { batch, approvedBy, approvedAt, wouldDo };
}
const SHOWN_LEFT_OUT = 3;
/** What the rules left out of a run's batch, by name: `left out: #12 changes no file that …`. */
function leftOut(batch) {
    const { skipped } = batch;
    if (!skipped.length)
        return '';
    const named = skipped.slice(0, SHOWN_LEFT_OUT).map(s => s.why.replace(/\.$/, ''));
    const more = skipped.length - named.length;
    return `left out: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/run-ledger.js




/**
 * The run's dashboard in its repository (found by its title, its state verified with the key, its
 * links on the run's GitHub, the project's limits beside what it used) and the ledger session that
 * records for this run and project. `withoutLedger`: how the run could go without one, when it can;
 * `signal`: the run's cancel, which ends the pause before a write is read back.
 */
async function openRunLedger(github, settings, event, clock, { withoutLedger, signal, warn } = {}) {
    const dashboard = await Dashboard.open(github, {
        title: settings.dashboardTitle,
        signer: new record/* RecordSigner */.wo(settings.apiKey),
        secrets: (0,agent_settings/* secretsOf */.Fj)(settings),
        view: {
            repository: `${event.owner}/${event.repo}`,
            serverUrl: event.serverUrl,
            limits: settings
        },
        now: () => clock.wallNow(),
        // The pause before a write is read back (compare-and-set), on the run's clock; a cancel ends it.
        sleep: ms => clock.sleep(ms, signal),
        ...(signal ? { signal } : {}),
        ...(withoutLedger === undefined ? {} : { withoutLedger }),
        ...(warn ? { warn } : {})
    });
    const session = new LedgerSession(dashboard, settings.projectId, { id: event.runId, url: event.runUrl, attempt: event.runAttempt, step: event.step }, () => clock.wallNow(), settings);
    return { dashboard, session };
}

;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/counted-runs.js



/**
 * With a budget, a job or follow-up started outside the dashboard's batch counts against it: it is
 * written on the dashboard once the service accepted it.
 * - A person's request (an issue, a comment, a review; `hold: false`): a dashboard that cannot be
 *   read or written costs it nothing but a warning.
 * - A change run on its own (`hold: true`: a pull request not merged yet, another branch) starts by
 *   itself on every push: the budget gate may hold it (it reads `ledger`), and a dashboard that
 *   cannot be read or written stops it, as it would stop a change run with the ledger.
 */
async function countedRun(settings, event, deps, run) {
    const { log, clock } = deps;
    let ledger;
    try {
        const github = deps.session.repository(settings.githubToken, event);
        ledger = (await openRunLedger(github, settings, event, clock, {
            signal: deps.signal,
            warn: message => log.warning(message)
        })).session;
        if (run.hold)
            await ledger.ensureWritable();
    }
    catch (error) {
        // A newer version keeps the ledger: this one may not start what it cannot count there.
        if (error instanceof NewerLedgerError)
            throw error;
        if (run.hold)
            throw new errors/* ExplainedError */.hM(`${(0,errors/* errorText */.kc)(error)} With 'max-jobs', ${run.what} starts a job only once the dashboard can count it.`);
        log.warning(`${(0,errors/* errorText */.kc)(error)} This run's job is not counted against 'max-jobs'; the run goes on.`);
        return {};
    }
    // What the dashboard says on the way (found by its title, created, reopened) is the user's to see,
    // as in a change run: what opening it said goes with the run's notices, what counting says after.
    const opened = [...ledger.notices];
    const count = async (job, followUp, note) => {
        const known = ledger.notices.length;
        try {
            await ledger.counted(job, followUp, note);
            for (const notice of ledger.notices.slice(known))
                log.notice(notice);
        }
        catch (error) {
            log.warning(`The dashboard could not count this run's ${followUp ? 'follow-up' : 'job'} against 'max-jobs': ${(0,errors/* errorText */.kc)(error)}`);
        }
    };
    return {
        dashboardUrl: ledger.url,
        ledger,
        notices: opened,
        hooks: {
            accepted: (job, followUp) => count(job, followUp, `from ${run.what}`),
            // No answer came: it may have started a job, and a job may cost credits.
            uncertain: (followUp, why, jobId) => count(jobId ? { id: jobId } : undefined, followUp, `from ${run.what}, uncertain: ${why}`),
            finished: async () => { }
        }
    };
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
