import { usePageMeta } from '../../../components/page-meta.ts';
import { ButtonLink } from '../../../components/ui/button.tsx';

const steps = [
  {
    title: 'Create the escrow',
    text: 'Enter the other party’s e-mail address, the amount in US dollars (we show the Bitcoin amount at the current rate), a description with the terms of the deal, and a payment deadline in days.',
  },
  {
    title: 'An address is assigned',
    text: 'The buyer gets a Bitcoin address from our pool, shown with a QR code and the exact amount to send. If none is free, an admin assigns one shortly.',
  },
  {
    title: 'Pay and provide proof',
    text: 'The buyer sends the exact amount and marks the escrow as paid, with notes and optionally a screenshot or a transaction detail file. An admin is told at once and checks the payment on the chain.',
  },
  {
    title: 'Delivery and confirmation',
    text: 'Once the payment is verified the escrow is funded and the seller delivers. The buyer confirms receipt when everything is as agreed.',
  },
  {
    title: 'Release or dispute',
    text: 'An admin releases the funds to the seller’s payout address. If something is wrong, either side opens a dispute and an admin decides: release, refund, or a split.',
  },
];

export function HowItWorksPage() {
  usePageMeta(
    'How it works',
    'The five steps of a Bitcoin escrow deal, from creation to release.',
    'how bitcoin escrow works, escrow steps',
  );
  return (
    <article>
      <p className="eyebrow">How it works</p>
      <h1>Five steps from agreement to payout</h1>
      <p className="lead">Each step is recorded, and both sides are e-mailed whenever the escrow needs them.</p>
      <ol className="timeline">
        {steps.map((step) => (
          <li key={step.title} className="card">
            <h2>{step.title}</h2>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
      <ButtonLink to="/register">Start your first escrow</ButtonLink>
    </article>
  );
}
