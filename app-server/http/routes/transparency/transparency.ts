import { OpenAPIHono, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { escrowIdParam } from '../../../../contract/escrow-requests.ts';
import {
  checkpointListSchema,
  checkpointsQuerySchema,
  consistencyProofSchema,
  consistencyQuerySchema,
  escrowProofSchema,
  inclusionProofSchema,
  inclusionQuerySchema,
  transparencyKeySchema,
} from '../../../../contract/transparency.ts';
import { DomainError, invalidInput, notFound } from '../../../../domain/shared/errors.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { findVisibleEscrow } from '../../../escrows/parties.ts';
import {
  checkpointsAfter,
  consistencyAnswer,
  escrowProof,
  inclusionAnswer,
  latestCheckpoint,
} from '../../../transparency/queries.ts';
import { nodesAt, treeSize } from '../../../transparency/tree.ts';
import { jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';

/** A proof for a signed size never changes; the latest checkpoint does, every CHECKPOINT_INTERVAL_S at most. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=10';

const textAnswer = (description: string) => ({ description, content: { 'text/plain': { schema: z.string() } } });

function logOf(deps: AppDeps) {
  if (!deps.transparency) throw new DomainError('not_ready', 'The transparency log is not running');
  return deps.transparency;
}

async function latestNote(deps: AppDeps): Promise<string> {
  logOf(deps);
  const latest = await latestCheckpoint(deps.database.db);
  if (!latest) throw notFound('No checkpoint is signed yet');
  return latest.note;
}

/** /api/transparency/*: the public read API of the transparency log (no sign-in; hashes and signed notes only). */
export function transparencyRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    route(
      'get',
      '/checkpoint',
      'The latest signed checkpoint (C2SP tlog-checkpoint as a C2SP signed note)',
      {},
      { 200: textAnswer('The signed note') },
    ),
    async (c) => {
      const note = await latestNote(deps);
      return c.text(note, 200, { 'Cache-Control': SHORT });
    },
  );

  app.openapi(
    route(
      'get',
      '/key',
      "The log's origin and the verifier key that signs its checkpoints now",
      {},
      { 200: jsonAnswer('Origin and vkey (name+hash+base64key)', transparencyKeySchema) },
    ),
    async (c) => {
      const log = logOf(deps);
      c.header('Cache-Control', SHORT);
      return c.json({ origin: log.origin, vkey: (await log.namedKey()) ?? log.vkey }, 200);
    },
  );

  app.openapi(
    route(
      'get',
      '/checkpoints',
      'Every checkpoint signed after a size, oldest first (up to 1,000; page with the last size)',
      { request: { query: checkpointsQuerySchema } },
      {
        200: jsonAnswer('Checkpoints', checkpointListSchema),
      },
    ),
    async (c) => {
      logOf(deps);
      const { after = 0 } = c.req.valid('query');
      c.header('Cache-Control', SHORT);
      return c.json(await checkpointsAfter(db, after), 200);
    },
  );

  app.openapi(
    route(
      'get',
      '/inclusion',
      'The RFC 9162 inclusion proof of leaf index (event position - 1) in the tree of a signed size',
      { request: { query: inclusionQuerySchema } },
      {
        200: jsonAnswer('Proof hashes, base64, from the leaf up', inclusionProofSchema),
      },
    ),
    async (c) => {
      logOf(deps);
      const { index, size } = c.req.valid('query');
      c.header('Cache-Control', IMMUTABLE);
      return c.json(await inclusionAnswer(db, index, size), 200);
    },
  );

  app.openapi(
    route(
      'get',
      '/consistency',
      'The RFC 9162 consistency proof from an earlier tree size to a signed one',
      { request: { query: consistencyQuerySchema } },
      {
        200: jsonAnswer('Proof hashes, base64', consistencyProofSchema),
      },
    ),
    async (c) => {
      logOf(deps);
      const { from, to } = c.req.valid('query');
      c.header('Cache-Control', IMMUTABLE);
      return c.json(await consistencyAnswer(db, from, to), 200);
    },
  );
  return app;
}

/** GET /api/escrows/{id}/proof: the deal's proof bundle, for its parties and admins (404 to anyone else). */
export function escrowProofRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    route(
      'get',
      '/{id}/proof',
      "The escrow's events with their inclusion proofs up to the latest signed checkpoint, to check offline",
      { middleware: [requireUser()] as const, request: { params: escrowIdParam } },
      {
        200: jsonAnswer('The checkpoint note, its vkey, each event line with its inclusion proof', escrowProofSchema),
      },
    ),
    async (c) => {
      logOf(deps);
      const { id } = c.req.valid('param');
      await findVisibleEscrow(deps.database.db, id, currentUser(c));
      c.header('Cache-Control', 'private, no-store');
      return c.json(await escrowProof(deps.database.db, id), 200);
    },
  );
  return app;
}

/** A C2SP tlog-tiles tile index: 3-digit groups, all but the last prefixed with x (`x001/234`). */
function parseTileIndex(segments: readonly string[]): number | null {
  if (segments.length === 0) return null;
  let n = 0;
  for (const [i, s] of segments.entries()) {
    const last = i === segments.length - 1;
    if (!(last ? /^[0-9]{3}$/ : /^x[0-9]{3}$/).test(s)) return null;
    n = n * 1000 + Number(last ? s : s.slice(1));
  }
  return Number.isSafeInteger(n) ? n : null;
}

const TILE_WIDTH = 256;
const TILE_HEIGHT = 8;

/**
 * /tlog/checkpoint and /tlog/tile/{L}/{N}[.p/{W}] (C2SP tlog-tiles, hash tiles only: the leaves are hashes, the
 * events stay private). A tile is the hashes of tree level 8*L, 32 bytes each, from index N*256; full tiles never
 * change and are cached for a year, partial ones (W < 256 hashes) are served while the tree has them.
 */
export function tileRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/tlog/checkpoint', async (c) => c.text(await latestNote(deps), 200, { 'Cache-Control': SHORT }));
  app.get('/tlog/tile/*', async (c) => {
    logOf(deps);
    const parts = c.req.path.slice('/tlog/tile/'.length).split('/');
    const level = parts.shift() ?? '';
    if (!/^(0|[1-9][0-9]?)$/.test(level) || Number(level) > 63 / TILE_HEIGHT + 1)
      throw invalidInput('L must be a tile level');
    let width = TILE_WIDTH;
    const p = parts.findIndex((s) => s.endsWith('.p'));
    if (p >= 0) {
      if (p !== parts.length - 2 || !/^([1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$/.test(parts[p + 1]!))
        throw invalidInput('W must be a partial width from 1 to 255');
      width = Number(parts[p + 1]);
      parts.splice(p, 2, parts[p]!.slice(0, -2));
    }
    const index = parseTileIndex(parts);
    if (index === null) throw invalidInput('N must be a tile index (3-digit groups, all but the last prefixed with x)');
    const size = await treeSize(deps.database.db);
    const hashes = await nodesAt(deps.database.db, Number(level) * TILE_HEIGHT, index * TILE_WIDTH, width);
    if (hashes.length < width || size === 0) throw notFound('No such tile in the tree yet');
    const body = new Uint8Array(width * 32);
    hashes.forEach((h, i) => body.set(h, i * 32));
    return c.body(body, 200, {
      'Content-Type': 'application/octet-stream',
      'Cache-Control': width === TILE_WIDTH ? IMMUTABLE : 'public, max-age=3600',
    });
  });
  return app;
}
