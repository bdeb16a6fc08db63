import { useEffect, useId, useRef, useState } from 'react';
import { QueryState } from '../ui/query-state.tsx';
import { MessageForm } from './message-form.tsx';
import { MessageList, type Side } from './message-list.tsx';
import { type Message, useMessages } from './messages-api.ts';
import './conversation.css';

interface ConversationPanelProps {
  escrowId: string;
  /** Where the viewer stands: a party's own messages are marked as theirs. */
  viewerSide: Side;
  /** Whether the viewer may write now (`post_message` in the escrow's `allowed_actions`). */
  canPost: boolean;
  /** The panel's heading level where it is shown (the escrow page: 2; inside a console view: 3 or 4). */
  headingLevel?: 2 | 3 | 4;
  /** Shown inside another card (the console's views): no card of its own. */
  embedded?: boolean;
}

const who = (m: Message) => (m.side === 'admin' ? 'an admin' : `the ${m.side}`);
const excerpt = (text: string) => (text.length > 140 ? `${text.slice(0, 140)}...` : text);

/**
 * The conversation of an escrow's parties and the admins: every message oldest first, new ones announced to screen
 * readers as they arrive, and the form to write one while the deal is under way.
 */
export function ConversationPanel({
  escrowId,
  viewerSide,
  canPost,
  headingLevel = 2,
  embedded = false,
}: ConversationPanelProps) {
  const messages = useMessages(escrowId);
  const headingId = useId();
  const [announcement, setAnnouncement] = useState('');
  const seen = useRef<Set<string> | null>(null);
  const Heading = (['h2', 'h3', 'h4'] as const)[headingLevel - 2]!;

  // Announce what others wrote since the last look (the first load is the page itself, not news).
  useEffect(() => {
    if (!messages.data) return;
    const ids = new Set(messages.data.map((m) => m.id));
    if (seen.current) {
      const fresh = messages.data.filter((m) => !seen.current!.has(m.id) && m.side !== viewerSide);
      if (fresh.length === 1) setAnnouncement(`New message from ${who(fresh[0]!)}: ${excerpt(fresh[0]!.text)}`);
      else if (fresh.length > 1) setAnnouncement(`${fresh.length} new messages`);
    }
    seen.current = ids;
  }, [messages.data, viewerSide]);

  // Inside another card it is a part of that card, not a landmark of its own: the console's dispute list shows one
  // per dispute, and landmarks of the same name cannot be told apart.
  const Box = embedded ? 'div' : 'section';
  return (
    <Box
      className={embedded ? 'conversation conversation-embedded' : 'card conversation'}
      aria-labelledby={headingId}
      {...(embedded ? { role: 'group' } : {})}
    >
      <Heading id={headingId}>Messages</Heading>
      <p className="small muted">
        {viewerSide === 'admin'
          ? 'The conversation of the buyer, the seller and the admins. The parties see your messages as written by "Admin".'
          : 'Between the buyer, the seller and the admins, who read it in a dispute. Keep the deal here: it is part of its record.'}
      </p>
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
      <QueryState
        query={messages}
        loadingLabel="Loading the messages..."
        errorFallback="The messages cannot be loaded right now."
        isEmpty={(data) => data.length === 0}
        empty={<p>No messages yet.{canPost ? ' Write the first one below.' : ''}</p>}
      >
        {(data) => <MessageList messages={data} viewerSide={viewerSide} />}
      </QueryState>
      {canPost ? (
        <MessageForm escrowId={escrowId} onSent={() => setAnnouncement('Message sent')} />
      ) : (
        <p className="small muted conversation-closed">This escrow has ended: no more messages can be written.</p>
      )}
    </Box>
  );
}
