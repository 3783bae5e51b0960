// gw_child.mjs — one graphile-worker process of a drain (forked by drain.mjs; not for users).
//
// argv[2]: JSON {pg: node-postgres config, concurrency, localQueueSize, completeBatchDelayMs,
// poolMax}. The process imports graphile-worker, opens its pool of poolMax connections (all
// connected before it reports), sends {ready: true} on the IPC channel, waits for 'go', then
// runs graphile-worker's own drain, runOnce (process jobs until none is left, then resolve),
// closes the pool and sends {done: true, ms} (ms: runOnce alone). Job `noop` does nothing, as
// the ringbench worker's handler at --work-ms 0. graphile-worker's info lines (one per job
// unless NO_LOG_SUCCESS is set) are dropped; warnings and errors go to stderr.
// Exit 0 after a drain, 1 on any error (the message on stderr).
process.env.NO_LOG_SUCCESS = '1'; // read by graphile-worker when its module loads
const { Logger, runOnce } = await import('graphile-worker');
const { default: pg } = await import('pg');
const { quietLogger } = await import('./gw_logger.mjs');

const cfg = JSON.parse(process.argv[2]);
process.on('disconnect', () => process.exit(1)); // the driver is gone: no orphan holding connections
const logger = quietLogger(Logger);

async function main() {
    const pool = new pg.Pool({ ...cfg.pg, max: cfg.poolMax });
    const onError = (e) => process.stderr.write(`gw_child: connection: ${e.message}\n`);
    pool.on('error', onError); // graphile-worker asks for both handlers
    pool.on('connect', (client) => client.on('error', onError));
    const clients = await Promise.all(Array.from({ length: cfg.poolMax }, () => pool.connect()));
    clients.forEach((c) => c.release());
    const go = new Promise((resolve) => process.once('message', resolve));
    process.send({ ready: true });
    await go;
    const t0 = process.hrtime.bigint();
    await runOnce({
        pgPool: pool,
        logger,
        noHandleSignals: true,
        taskList: { noop: async () => {} },
        preset: {
            worker: {
                concurrentJobs: cfg.concurrency,
                localQueue: { size: cfg.localQueueSize },
                completeJobBatchDelay: cfg.completeBatchDelayMs,
                failJobBatchDelay: cfg.completeBatchDelayMs,
            },
        },
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    await pool.end();
    process.send({ done: true, ms }, () => process.exit(0));
}

main().catch((e) => {
    process.stderr.write(`gw_child: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
});
