import { OpenAPIHono } from '@hono/zod-openapi';
import { escrowIdParam as idParam } from '../../../../contract/escrow-requests.ts';
import {
  messageListSchema,
  messageSchema,
  postMessageFormSchema,
  postMessageJsonSchema,
} from '../../../../contract/messages.ts';
import { invalidInput } from '../../../../domain/shared/errors.ts';
import type { AppDeps } from '../../../app-deps.ts';
import { postMessage } from '../../../messages/post-message.ts';
import { messagesOf } from '../../../messages/queries.ts';
import { jsonAnswer } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';
import { escrowActing } from './acting.ts';

const isJson = (contentType: string | undefined) => /^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? '');

/**
 * /api/escrows/{id}/messages: the conversation of an escrow's parties and the admins. Anyone else gets 404, as if the
 * escrow did not exist. Messages are only ever added: there is no edit and no delete.
 */
export function messageRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const { load: visible, meta } = escrowActing(deps);

  app.openapi(
    route(
      'get',
      '/{id}/messages',
      "The escrow's conversation, oldest first (its parties and admins)",
      { middleware: [requireUser()] as const, request: { params: idParam } },
      {
        200: jsonAnswer('Messages, oldest first', messageListSchema),
      },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { side } = await visible(id, currentUser(c));
      return c.json(await messagesOf(db, id, side === 'admin' ? 'admin' : side === 'seller' ? 'seller' : 'buyer'), 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/messages',
      'Write a message: JSON {text} (1-4000 characters), or a multipart form with text and optionally one file (PNG, JPEG, WebP, GIF, PDF or text; 10 MB). The other side is mailed (and in a dispute the admins), at most once per escrow every 10 minutes',
      {
        middleware: [requireUser()] as const,
        request: {
          params: idParam,
          body: {
            required: false,
            content: {
              'application/json': { schema: postMessageJsonSchema },
              'multipart/form-data': { schema: postMessageFormSchema },
            },
          },
        },
      },
      { 201: jsonAnswer('The message as written', messageSchema) },
    ),
    async (c) => {
      const user = currentUser(c);
      const { id } = c.req.valid('param');
      const { side } = await visible(id, user);
      // Each declared body is validated only when it is the one sent; no body at all is no text.
      const body = isJson(c.req.header('content-type')) ? c.req.valid('json') : c.req.valid('form');
      if (typeof body.text !== 'string') throw invalidInput('text is required');
      const sent = 'file' in body ? body.file : undefined;
      const file =
        sent instanceof File && (sent.size > 0 || sent.name)
          ? { name: sent.name, type: sent.type, bytes: new Uint8Array(await sent.arrayBuffer()) }
          : null;
      const { events } = await postMessage(deps.store, { escrowId: id, by: side, text: body.text, file }, meta(c));
      const posted = events.find((e) => e.type === 'MessagePosted');
      const message = (
        await messagesOf(db, id, side === 'admin' ? 'admin' : side === 'seller' ? 'seller' : 'buyer')
      ).find((m) => posted?.type === 'MessagePosted' && m.id === posted.data.message_id);
      return c.json(message!, 201);
    },
  );

  return app;
}
