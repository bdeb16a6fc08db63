import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, api } from '../../../api/client.ts';
import type { PgpKey } from '../../../../../contract/site.ts';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Loading } from '../../../components/ui/loading.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { copyText } from '../../../lib/copy-text.ts';

export function PgpKeyPage() {
  usePageMeta(
    'PGP public key',
    'Our support team’s public PGP key, to encrypt sensitive messages to us and verify what we sign.',
    'pgp key, encrypted support, bitcoin escrow security',
  );
  const key = useQuery({
    queryKey: ['pgp-key'],
    queryFn: ({ signal }) => api<PgpKey>('/pgp-key', { signal }),
    retry: false,
    staleTime: Infinity,
  });
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <article>
      <p className="eyebrow">Security</p>
      <h1>Our PGP public key</h1>
      <p className="lead">
        Use this key to encrypt anything sensitive you send to support (account details, dispute evidence), and to check
        that messages signed by us really come from us.
      </p>
      {key.isPending && <Loading />}
      {key.isError && (
        <Message tone="info">
          {key.error instanceof ApiError && key.error.status === 404
            ? 'No PGP key has been published for support yet. Please do not send sensitive details by e-mail until one is.'
            : key.error.message}
        </Message>
      )}
      {key.data && (
        <div className="pgp-layout">
          <section className="card" aria-labelledby="key-info">
            <h2 id="key-info">Key information</h2>
            <dl className="facts">
              <dt>Type</dt>
              <dd>{key.data.key_type}</dd>
              <dt>Key ID</dt>
              <dd className="mono">{key.data.key_id}</dd>
              <dt>Fingerprint</dt>
              <dd className="mono">{key.data.fingerprint}</dd>
              {key.data.user_id && (
                <>
                  <dt>Name</dt>
                  <dd>{key.data.user_id}</dd>
                </>
              )}
              <dt>Support e-mail</dt>
              <dd>
                <a href={`mailto:${key.data.support_email}`}>{key.data.support_email}</a>
              </dd>
            </dl>
            <Message tone="info">
              Always verify the fingerprint through more than one channel (this page, our e-mail signature, a call with
              support) before you trust the key.
            </Message>
          </section>
          <section className="card" aria-labelledby="key-block">
            <div className="card-head">
              <h2 id="key-block">Public key block</h2>
              <Button variant="secondary" onClick={async () => setCopied(await copyText(key.data.armored))}>
                {copied ? 'Copied!' : 'Copy to Clipboard'}
              </Button>
            </div>
            <pre className="key-block" tabIndex={0} aria-label="Armored PGP public key">
              {key.data.armored}
            </pre>
          </section>
        </div>
      )}
    </article>
  );
}
