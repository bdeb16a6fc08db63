import { currentUser } from './middleware/authenticate.ts';

type RequestContext = Parameters<typeof currentUser>[0] & { get: (key: 'requestId') => string };

/** Who asks and which request it is: what every command records in its events' metadata. */
export const commandMeta = (c: RequestContext) => ({ actor: currentUser(c).id, requestId: c.get('requestId') });
