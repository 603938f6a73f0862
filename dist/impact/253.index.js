export const id = 253;
export const ids = [253];
export const modules = {

/***/ 8253:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  countedRun: () => (/* binding */ countedRun)
});

// EXTERNAL MODULE: ./.tmp/ncc-js/runner/errors.js
var errors = __webpack_require__(7156);
// EXTERNAL MODULE: ./.tmp/ncc-js/agent/ledger/dashboard-choice.js
var dashboard_choice = __webpack_require__(8520);
// EXTERNAL MODULE: ./.tmp/ncc-js/records/record.js
var record = __webpack_require__(6508);
// EXTERNAL MODULE: ./.tmp/ncc-js/agent/settings.js + 1 modules
var agent_settings = __webpack_require__(5363);
// EXTERNAL MODULE: ./.tmp/ncc-js/agent/ledger/dashboard.js + 3 modules
var ledger_dashboard = __webpack_require__(6333);
// EXTERNAL MODULE: ./.tmp/ncc-js/agent/ledger/ledger-session.js
var ledger_session = __webpack_require__(4188);
;// CONCATENATED MODULE: ./.tmp/ncc-js/agent/ledger/run-ledger.js




/**
 * The run's dashboard in its repository (found by its title, its state verified with the key, its
 * links on the run's GitHub, the project's limits beside what it used) and the ledger session that
 * records for this run and project. `withoutLedger`: how the run could go without one, when it can;
 * `signal`: the run's cancel, which ends the pause before a write is read back.
 */
async function openRunLedger(github, settings, event, clock, { withoutLedger, signal, warn } = {}) {
    const dashboard = await ledger_dashboard/* Dashboard */.x.open(github, {
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
    const session = new ledger_session/* LedgerSession */.Mt(dashboard, settings.projectId, { id: event.runId, url: event.runUrl, attempt: event.runAttempt, step: event.step }, () => clock.wallNow(), settings);
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
        if (error instanceof dashboard_choice/* NewerLedgerError */.dz)
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


/***/ })

};
