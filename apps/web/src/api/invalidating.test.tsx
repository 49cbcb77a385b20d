import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useInvalidatingAll } from './invalidating';

// A change that removes its own row (approving a held reply) unmounts the row when the list reloads, before
// the mutation settles. The callbacks handed to mutate() — the "approved" toast — must still run. A server
// render never subscribes to the mutation, so the component that called mutate() is "gone" from the start:
// TanStack's own mutate() would drop the callbacks here.
type Mutate = ReturnType<typeof useInvalidatingAll<{ id: number }, { ok: number }>>['mutate'];

type Call = (v: { id: number }) => Promise<{ ok: number }>;

function Row({ call, hand }: { call: Call; hand: (mutate: Mutate) => void }) {
  useQuery({ queryKey: ['rows'], queryFn: () => Promise.resolve([1]) });
  hand(useInvalidatingAll([['rows']], call).mutate);
  return null;
}

function renderRow(client: QueryClient, call: Call): Mutate {
  let mutate: Mutate | undefined;
  renderToString(
    <QueryClientProvider client={client}>
      <Row call={call} hand={(m) => (mutate = m)} />
    </QueryClientProvider>,
  );
  return mutate!;
}

describe('useInvalidatingAll: the callbacks of one call', () => {
  it('runs onSuccess and onSettled, though the caller is no longer mounted', async () => {
    const client = new QueryClient();
    const mutate = renderRow(client, async ({ id }) => ({ ok: id }));
    const settled = await new Promise<unknown[]>((resolve) => {
      const seen: unknown[] = [];
      mutate(
        { id: 7 },
        {
          onSuccess: (data, variables) => seen.push(['success', data, variables]),
          onSettled: (data, error) => resolve([...seen, ['settled', data, error]]),
        },
      );
    });
    expect(settled).toEqual([
      ['success', { ok: 7 }, { id: 7 }],
      ['settled', { ok: 7 }, null],
    ]);
  });

  it('runs onError with the failure, and a call without onError rejects nothing unhandled', async () => {
    const client = new QueryClient();
    const mutate = renderRow(client, async () => {
      throw new Error('Ответ уже одобрен');
    });
    const failed = await new Promise<string>((resolve) => {
      mutate({ id: 1 }, { onError: (error) => resolve(error.message) });
    });
    expect(failed).toBe('Ответ уже одобрен');
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    try {
      await new Promise<void>((resolve) => mutate({ id: 2 }, { onSettled: () => resolve() }));
      mutate({ id: 3 });
      // Node reports unhandled rejections once the microtasks after a macrotask have run.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });
});
