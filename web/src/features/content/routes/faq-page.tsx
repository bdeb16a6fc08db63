import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { usePricing, useSiteInfo } from '../../../api/site.ts';
import { usePageMeta } from '../../../components/page-meta.ts';
import { ButtonLink } from '../../../components/ui/button.tsx';

interface Entry {
  q: string;
  a: ReactNode;
}

export function FaqPage() {
  usePageMeta(
    'Frequently asked questions',
    'Answers about accounts, creating an escrow, paying in Bitcoin, disputes and support.',
    'bitcoin escrow faq, escrow fee, escrow dispute',
  );
  const site = useSiteInfo();
  const pricing = usePricing();
  const fee = `${pricing.data?.fee_percentage ?? 1.5}%`;
  const email = site.data?.support_email;
  const hours = site.data?.support_hours;
  const support = email ? <a href={`mailto:${email}`}>{email}</a> : 'our support address';

  const sections: Array<{ title: string; entries: Entry[] }> = [
    {
      title: 'General Questions',
      entries: [
        {
          q: 'What is an escrow?',
          a: 'A neutral party holds the buyer’s payment until the buyer confirms the deal was delivered as agreed. Then the money goes to the seller.',
        },
        {
          q: 'Who checks the payments?',
          a: 'A person. When the buyer marks an escrow as paid, the admins are notified at once and an admin checks the payment on the Bitcoin chain before the escrow counts as funded.',
        },
        {
          q: 'What does it cost?',
          a: `A fee of ${fee} of the amount, added on top and shown before you create the escrow. A refunded escrow is refunded in full.`,
        },
      ],
    },
    {
      title: 'Account & Security',
      entries: [
        {
          q: 'Do I need an account?',
          a: 'Yes. Both sides sign in; the other party sees the escrow once they confirm the e-mail address it was opened with.',
        },
        {
          q: 'How do I protect my account?',
          a: 'Switch on two-factor authentication in your profile with an authenticator app. You then give a code when you sign in and when you create an escrow.',
        },
        {
          q: 'I forgot my password. What now?',
          a: (
            <>
              Write to {support}. An admin checks it is you and sets a temporary password, which signs out every
              session.
            </>
          ),
        },
      ],
    },
    {
      title: 'Creating an Escrow',
      entries: [
        {
          q: 'What do I need to create one?',
          a: 'The product or service, the other party’s e-mail address, the amount in US dollars, a description with the terms, and a payment deadline (7 days unless you choose 1 to 90).',
        },
        {
          q: 'How is the Bitcoin amount worked out?',
          a: 'From the total in dollars and the BTC/USD rate in force when the escrow is created, rounded up to the satoshi so the payment always covers the total.',
        },
        {
          q: 'Can I cancel?',
          a: 'The creator can cancel until the buyer marks the payment as sent. An unpaid escrow is cancelled automatically when its deadline passes.',
        },
      ],
    },
    {
      title: 'Payment & Bitcoin',
      entries: [
        {
          q: 'Where do I send the Bitcoin?',
          a: 'To the address shown on the escrow page, with a QR code and the exact amount. Each address is used for one escrow only.',
        },
        {
          q: 'How long does verification take?',
          a: `We check by hand during support hours${hours ? ` (${hours})` : ''}, usually once the transaction has a few confirmations.`,
        },
        {
          q: 'How does the seller get paid?',
          a: 'The seller sets a payout address on the escrow. After the buyer confirms receipt, an admin releases the funds to it and records the transaction.',
        },
      ],
    },
    {
      title: 'Disputes & Support',
      entries: [
        {
          q: 'What if something goes wrong?',
          a: 'Either side opens a dispute from the escrow page and explains why. The funds stay held while an admin reviews it.',
        },
        {
          q: 'How are disputes decided?',
          a: 'An admin looks at what both sides provide and releases the funds to the seller, refunds the buyer, or splits them by a percentage.',
        },
        {
          q: 'How do I reach support?',
          a: (
            <>
              By e-mail at {support}
              {hours ? `, ${hours}` : ''}, or through the <Link to="/contact">contact form</Link>. For sensitive
              details, encrypt with our <Link to="/pgp-key">PGP key</Link>.
            </>
          ),
        },
      ],
    },
    {
      title: 'Miscellaneous',
      entries: [
        {
          q: 'Can I leave a review?',
          a: (
            <>
              Yes, on the <Link to="/reviews">reviews page</Link>. Reviews are read by a moderator before they appear,
              usually within 24-48 hours.
            </>
          ),
        },
        {
          q: 'Which Bitcoin addresses do you accept for payouts?',
          a: 'Standard addresses of the Bitcoin network we run on: legacy, script, and SegWit (bech32 and bech32m). Each is checked before it is saved.',
        },
      ],
    },
  ];

  let number = 0;
  return (
    <article>
      <p className="eyebrow">FAQ</p>
      <h1>Frequently asked questions</h1>
      {sections.map((section) => (
        <section key={section.title} className="faq-section" aria-labelledby={`faq-${section.title}`}>
          <h2 id={`faq-${section.title}`}>{section.title}</h2>
          <ol className="faq-list">
            {section.entries.map((entry) => {
              number += 1;
              return (
                <li key={entry.q} className="card">
                  <h3>
                    {number}. {entry.q}
                  </h3>
                  <p>{entry.a}</p>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
      <ButtonLink to="/register">Create Your First Escrow</ButtonLink>
    </article>
  );
}
