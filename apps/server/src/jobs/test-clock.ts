import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { taskClock } from '../lib/clock';
import type { AppDeps } from '../modules/deps';
import { IssuesDueJob } from './issues-due';
import { NotificationDeliveryJob } from './notification-delivery';
import { RulesNoReplyJob } from './rules-no-reply';

/**
 * e2e only (TEST_CLOCK=1): `POST /v1/test/clock` moves the task clock forward and runs the due jobs at
 * once. Registered by the composition root (app.ts), not by the issues module, so no module imports a job
 * (issue 12: modules → jobs would be a cycle).
 */
export function registerTestClockRoute(root: FastifyInstance, deps: AppDeps) {
  if (deps.config.TEST_CLOCK !== '1') return;
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  const job = new IssuesDueJob({ db, bus: deps.bus, log: deps.log });
  const emails = new NotificationDeliveryJob({
    db,
    log: deps.log,
    mailer: deps.mailer,
    sealer: deps.sealer,
    appUrl: deps.config.appUrl,
  });
  // The auto-rules' "no reply for N minutes" reads the same clock (issue 17).
  const noReply = new RulesNoReplyJob({
    db,
    bus: deps.bus,
    config: deps.config,
    sealer: deps.sealer,
    locks: deps.locks,
    log: deps.log,
  });
  app.post(
    '/test/clock',
    {
      schema: {
        hide: true,
        body: z.object({
          offset_ms: z
            .number()
            .int()
            .min(0)
            .max(10 * 365 * 86_400_000),
        }),
      },
    },
    async (req) => {
      taskClock.setOffset(req.body.offset_ms);
      const expired = await job.tick();
      // Rules waiting on the moved clock (issue 17) and notification emails due by it (digests, issue 18).
      const rules = await noReply.tick();
      return { now: taskClock.now().toISOString(), expired, rules, emails: await emails.tick() };
    },
  );
}
