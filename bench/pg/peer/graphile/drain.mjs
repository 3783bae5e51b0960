#!/usr/bin/env node
// drain.mjs — graphile-worker beside `ringbench pg worker` on one server: the same backlog
// drained by W worker processes of each, cell after cell, interleaved, repeated.
// Method and outputs: README.md here. Driven by scripts/peer-graphile.
//
// usage: node drain.mjs --ringbench PATH [--conninfo STR] [--db NAME] [--jobs N]
//          [--jobs-b1 N] [--workers LIST] [--workers-b1 LIST] [--modes LIST] [--keys K]
//          [--repeats R] [--groups b32,b1] [--timeout-s S]
//
// stdout: one JSON line per drain (cell x repeat), then one line {"kind": "run", ...} with the
// versions and the server's settings. Progress and worker diagnostics on stderr.
// Exit 0; 1 when a drain failed, left a job or row behind, or saw a duplicate; 2 bad options.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseConninfo, toLibpq, toNodePg } from './conninfo.mjs';
import { quietLogger } from './gw_logger.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const RB_SCHEMA = 'peer_rb';

function usage(msg) {
    process.stderr.write(`ringbench peer-graphile: ${msg}\n`);
    process.exit(2);
}

// The two groups of cells. Each compares like with like at one backlog size:
//   b32: graphile-worker fetching 32 jobs per query (local queue), completions batched
//        (`batched`) or one per job (`each-fetch32`), against ringbench at batch 32, alone
//        and with --chain (a batch's completions and the next claim in one commit);
//   b1:  graphile-worker with its defaults (one job per fetch, one completion per job,
//        `each-fetch1`) against ringbench at batch 1, alone and with --chain.
const GW_CONFIGS = {
    batched: { concurrency: 32, localQueueSize: 32, completeBatchDelayMs: 0 },
    'each-fetch32': { concurrency: 1, localQueueSize: 32, completeBatchDelayMs: -1 },
    'each-fetch1': { concurrency: 1, localQueueSize: -1, completeBatchDelayMs: -1 },
};
const GW_POOL_MAX = 10; // graphile-worker's default maxPoolSize
const GROUPS = {
    b32: {
        gw: ['batched', 'each-fetch32'],
        rb: [
            { config: 'batch32', batch: 32, chain: false },
            { config: 'batch32-chain', batch: 32, chain: true },
        ],
    },
    b1: {
        gw: ['each-fetch1'],
        rb: [
            { config: 'batch1', batch: 1, chain: false },
            { config: 'batch1-chain', batch: 1, chain: true },
        ],
    },
};

function parseOptions() {
    let v;
    try {
        v = parseArgs({
            options: {
                ringbench: { type: 'string' },
                conninfo: { type: 'string', default: process.env.RINGBENCH_PG_CONNINFO || '' },
                db: { type: 'string', default: 'ringbench_peer' },
                jobs: { type: 'string', default: '50000' },
                'jobs-b1': { type: 'string' },
                workers: { type: 'string', default: '1,2,4' },
                'workers-b1': { type: 'string', default: '1' },
                modes: { type: 'string', default: 'competing,affinity,ordered' },
                keys: { type: 'string', default: '10000' },
                repeats: { type: 'string', default: '3' },
                groups: { type: 'string', default: 'b32,b1' },
                'timeout-s': { type: 'string', default: '900' },
            },
            strict: true,
        }).values;
    } catch (e) {
        usage(e.message);
    }
    const int = (name, lo, hi) => {
        const s = v[name];
        if (!/^[0-9]+$/.test(s) || Number(s) < lo || Number(s) > hi) usage(`--${name} must be ${lo} .. ${hi}, got '${s}'`);
        return Number(s);
    };
    const list = (name, ok) => {
        const xs = v[name].split(',');
        for (const x of xs) if (!ok(x)) usage(`--${name}: bad element '${x}'`);
        return xs;
    };
    if (!v.ringbench) usage('--ringbench PATH is required');
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(v.db)) usage(`--db must be a plain lower-case name, got '${v.db}'`);
    if (v['jobs-b1'] === undefined) v['jobs-b1'] = v.jobs;
    const w = (x) => /^[1-9][0-9]?$/.test(x) && Number(x) <= 16;
    return {
        ringbench: v.ringbench,
        conninfo: v.conninfo,
        db: v.db,
        jobs: { b32: int('jobs', 1, 10000000), b1: int('jobs-b1', 1, 10000000) },
        workers: { b32: list('workers', w).map(Number), b1: list('workers-b1', w).map(Number) },
        modes: list('modes', (x) => ['competing', 'affinity', 'ordered'].includes(x)),
        keys: int('keys', 1, 100000000),
        repeats: int('repeats', 1, 99),
        groups: list('groups', (x) => x in GROUPS),
        timeoutMs: 1000 * int('timeout-s', 1, 86400),
    };
}

const sqlCache = new Map();
function sql(name) {
    if (!sqlCache.has(name)) sqlCache.set(name, readFileSync(join(here, 'sql', `${name}.sql`), 'utf8'));
    return sqlCache.get(name);
}

// start(cmd, args, input) — a child process: {proc, done}; done resolves at its end with
// {code, out, err}. run(): the same, awaited.
function start(cmd, args, input) {
    const proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const done = new Promise((resolve, reject) => {
        let out = '';
        let err = '';
        proc.stdout.on('data', (d) => (out += d));
        proc.stderr.on('data', (d) => (err += d));
        proc.on('error', reject);
        proc.on('close', (code, sig) => resolve({ code: code ?? sig, out, err }));
    });
    proc.stdin.end(input || '');
    return { proc, done };
}

function run(cmd, args, input) {
    return start(cmd, args, input).done;
}

function tail(s, n = 5) {
    return s.trim().split('\n').slice(-n).join('\n');
}

// ---------------------------------------------------------------- setup

async function setup(o, pg) {
    const base = parseConninfo(o.conninfo);
    const admin = new pg.Client(toNodePg(base));
    await admin.connect();
    if (Number((await admin.query(sql('db_exists'), [o.db])).rows[0].n) === 0)
        await admin.query(`CREATE DATABASE ${o.db}`); // a plain name, checked by parseOptions
    const peer = { ...base, dbname: o.db };
    const env = { admin, pgConfig: toNodePg(peer), libpq: toLibpq(peer), server: (await admin.query(sql('server'))).rows[0] };
    const { Logger, runMigrations } = await import('graphile-worker');
    const pool = new pg.Pool({ ...env.pgConfig, max: 1 });
    const onError = (e) => process.stderr.write(`ringbench peer-graphile: connection: ${e.message}\n`);
    pool.on('error', onError); // graphile-worker asks for both handlers
    pool.on('connect', (client) => client.on('error', onError));
    await runMigrations({ pgPool: pool, logger: quietLogger(Logger) });
    await pool.end();
    const m = await run(o.ringbench, ['pg', 'migrate', '--db', env.libpq, '--schema', RB_SCHEMA]);
    if (m.code !== 0) throw new Error(`ringbench pg migrate: exit ${m.code}: ${tail(m.err)}`);
    return env;
}

// session(env, pg, schema, fn) — one connection to the peer database for a fill or a check,
// closed afterwards (so its statistics are flushed before a drain is measured).
async function session(env, pg, schema, fn) {
    const c = new pg.Client(env.pgConfig);
    await c.connect();
    try {
        if (schema) await c.query(`SET search_path TO ${schema}`);
        return await fn(c);
    } finally {
        await c.end();
    }
}

async function fillGraphile(env, pg, n, keys) {
    await session(env, pg, null, async (c) => {
        await c.query(sql('gw_reset'));
        const got = Number((await c.query(sql('gw_fill'), [n, keys])).rows[0].count);
        if (got !== n) throw new Error(`graphile-worker fill: ${got} jobs added, expected ${n}`);
        await c.query(sql('gw_vacuum'));
    });
}

async function fillRingbench(o, env, pg, n) {
    await session(env, pg, RB_SCHEMA, (c) => c.query(sql('rb_reset')));
    const lines = [];
    for (let i = 0; i < n; i++) lines.push(`order:${i % o.keys}\tpeer-${i}\n`);
    const e = await run(o.ringbench, ['pg', 'enqueue', '--db', env.libpq, '--schema', RB_SCHEMA, '-'], lines.join(''));
    if (e.code !== 0) throw new Error(`ringbench pg enqueue: exit ${e.code}: ${tail(e.err)}`);
    await session(env, pg, RB_SCHEMA, (c) => c.query(sql('rb_vacuum')));
}

// ---------------------------------------------------------------- measurement

async function waitNoBackends(env, db, ms) {
    const end = Date.now() + ms;
    while (Number((await env.admin.query(sql('backends'), [db])).rows[0].n) > 0) {
        if (Date.now() > end) throw new Error(`sessions of database ${db} still open after ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
    }
}

async function xact(env, db) {
    const r = (await env.admin.query(sql('xact'), [db])).rows[0];
    return { commit: Number(r.xact_commit), rollback: Number(r.xact_rollback) };
}

// measure(o, env, launch) — the commit counters around one drain: launch() starts the workers
// and resolves when every one has exited ({wall_ns, ...}).
async function measure(o, env, launch) {
    await waitNoBackends(env, o.db, 10000);
    const x0 = await xact(env, o.db);
    const r = await launch();
    await waitNoBackends(env, o.db, 10000);
    const x1 = await xact(env, o.db);
    return { ...r, xact_commit: x1.commit - x0.commit, xact_rollback: x1.rollback - x0.rollback };
}

// withDeadline(o, procs, promise) — kill every child when the drain exceeds --timeout-s.
function withDeadline(o, procs, promise) {
    let timer;
    const dead = new Promise((_, reject) => {
        timer = setTimeout(() => {
            procs.forEach((p) => p.kill('SIGKILL'));
            reject(new Error(`drain exceeded --timeout-s ${o.timeoutMs / 1000}`));
        }, o.timeoutMs);
    });
    return Promise.race([promise, dead]).finally(() => clearTimeout(timer));
}

function exited(p, name) {
    return new Promise((resolve, reject) => {
        p.on('error', reject);
        p.on('exit', (code, sig) => (code === 0 ? resolve() : reject(new Error(`${name}: exit ${code ?? sig}`))));
    });
}

// W graphile-worker processes: each ready (module loaded, pool connected: no transaction
// yet), then released at once; the clock starts at the release.
async function drainGraphile(o, env, config, w) {
    const arg = JSON.stringify({ pg: env.pgConfig, poolMax: GW_POOL_MAX, ...GW_CONFIGS[config] });
    return measure(o, env, async () => {
        const procs = Array.from({ length: w }, () => fork(join(here, 'gw_child.mjs'), [arg], { stdio: ['ignore', 2, 2, 'ipc'] }));
        const done = Promise.all(procs.map((p, i) => exited(p, `graphile-worker process ${i}`)));
        const ready = Promise.all(procs.map((p) => new Promise((r) => p.once('message', r))));
        await withDeadline(o, procs, Promise.race([ready, done]));
        const t0 = process.hrtime.bigint();
        procs.forEach((p) => p.send('go'));
        await withDeadline(o, procs, done);
        return { wall_ns: Number(process.hrtime.bigint() - t0) };
    });
}

// W `ringbench pg worker --until-empty` processes, started at the clock (a C process connects
// and registers in milliseconds: its whole start is inside the figure).
async function drainRingbench(o, env, rb, mode, w) {
    const args = ['pg', 'worker', '--db', env.libpq, '--schema', RB_SCHEMA, '--mode', mode, '--batch', String(rb.batch), '--until-empty', '--format', 'json'];
    if (rb.chain) args.push('--chain');
    return measure(o, env, async () => {
        const t0 = process.hrtime.bigint();
        const ps = Array.from({ length: w }, () => start(o.ringbench, args));
        const outs = await withDeadline(o, ps.map((p) => p.proc), Promise.all(ps.map((p) => p.done)));
        const wall_ns = Number(process.hrtime.bigint() - t0);
        outs.forEach((r, i) => {
            if (r.code !== 0) throw new Error(`ringbench pg worker ${i}: exit ${r.code}: ${tail(r.err)}`);
        });
        return { wall_ns };
    });
}

// ---------------------------------------------------------------- cells

function cellsOf(o) {
    const cells = [];
    for (const g of o.groups)
        for (const w of o.workers[g]) {
            const c = [];
            for (const config of GROUPS[g].gw) c.push({ group: g, system: 'graphile-worker', config, mode: null, workers: w });
            for (const rb of GROUPS[g].rb)
                for (const mode of o.modes) c.push({ group: g, system: 'ringbench', config: rb.config, rb, mode, workers: w });
            cells.push(c);
        }
    return cells; // one list per (group, W); rotated per repeat
}

async function runCell(o, env, pg, cell, repeat) {
    const n = o.jobs[cell.group];
    let r;
    let check;
    if (cell.system === 'graphile-worker') {
        await fillGraphile(env, pg, n, o.keys);
        r = await drainGraphile(o, env, cell.config, cell.workers);
        const left = await session(env, pg, null, (c) => c.query(sql('gw_left')));
        check = { jobs_left: Number(left.rows[0].n_left), n_errored: Number(left.rows[0].n_errored), n_duplicates: null };
    } else {
        await fillRingbench(o, env, pg, n);
        r = await drainRingbench(o, env, cell.rb, cell.mode, cell.workers);
        const k = (await session(env, pg, RB_SCHEMA, (c) => c.query(sql('rb_check')))).rows[0];
        check = { jobs_left: Number(k.n_not_done), n_errored: 0, n_duplicates: Number(k.n_dup) + Math.max(0, Number(k.n_effects) - Number(k.n_done)) };
    }
    const wall_s = r.wall_ns / 1e9;
    const line = {
        kind: 'drain', group: cell.group, system: cell.system, config: cell.config, mode: cell.mode,
        workers: cell.workers, repeat, jobs: n, wall_s, jobs_per_s: n / wall_s,
        xact_commit: r.xact_commit, xact_rollback: r.xact_rollback, commits_per_job: r.xact_commit / n, ...check,
    };
    process.stdout.write(JSON.stringify(line) + '\n');
    const what = `${cell.system} ${cell.config}${cell.mode ? ' ' + cell.mode : ''} W=${cell.workers}`;
    process.stderr.write(`peer-graphile: repeat ${repeat} ${what}: ${n} jobs in ${wall_s.toFixed(2)} s, ${line.jobs_per_s.toFixed(0)} jobs/s, ${line.commits_per_job.toFixed(3)} commits/job\n`);
    return check.jobs_left === 0 && check.n_errored === 0 && !check.n_duplicates;
}

async function main() {
    const o = parseOptions();
    const { default: pg } = await import('pg');
    const env = await setup(o, pg);
    let ok = true;
    try {
        const groups = cellsOf(o);
        for (let r = 1; r <= o.repeats; r++)
            for (const cells of groups)
                for (let i = 0; i < cells.length; i++) ok = (await runCell(o, env, pg, cells[(i + r - 1) % cells.length], r)) && ok;
    } finally {
        // the run line even after a failure, so the drains done so far can be reported
        process.stdout.write(JSON.stringify(runLine(o, env)) + '\n');
        await env.admin.end();
    }
    if (!ok) {
        process.stderr.write('ringbench peer-graphile: a drain left jobs behind, failed jobs or ran one twice (above)\n');
        process.exit(1);
    }
}

function runLine(o, env) {
    const version = (pkg) => JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    return {
        kind: 'run', node: process.version, graphile_worker: version('graphile-worker'), node_postgres: version('pg'),
        server: env.server, database: o.db, jobs: o.jobs, workers: o.workers, modes: o.modes, keys: o.keys,
        repeats: o.repeats, groups: o.groups, graphile_configs: GW_CONFIGS, graphile_pool_max: GW_POOL_MAX,
    };
}

main().catch((e) => {
    process.stderr.write(`ringbench peer-graphile: ${e.message}\n`);
    process.exit(1);
});
