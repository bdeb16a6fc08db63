import { usePageMeta } from '../../../components/page-meta.ts';
import { ButtonLink } from '../../../components/ui/button.tsx';

export function AboutPage() {
  usePageMeta(
    'About us',
    'Why we run a manually verified Bitcoin escrow, and who it is for.',
    'about bitcoin escrow, escrow service, mission',
  );
  return (
    <article className="prose">
      <p className="eyebrow">About</p>
      <h1>Making Bitcoin deals between strangers safe</h1>
      <p className="lead">
        Bitcoin payments cannot be reversed. That is a strength, until you pay someone who never delivers. We stand
        between buyer and seller so that neither has to trust the other.
      </p>
      <h2>Our mission</h2>
      <p>
        We hold the buyer’s payment until the buyer confirms the goods or services arrived, and only then pay the
        seller. Every payment is checked on the Bitcoin chain by a person, and every decision is written to a log that
        cannot be changed without it showing.
      </p>
      <h2>Who it is for</h2>
      <ul>
        <li>Freelancers and agencies who want to be sure the client can pay before they start.</li>
        <li>Buyers of domains, hardware, collectibles and services from people they have never met.</li>
        <li>Marketplace and forum traders who need a neutral third party for a one-off deal.</li>
      </ul>
      <h2>How we work</h2>
      <p>
        Prices are agreed in US dollars and converted to Bitcoin at the rate in force when the escrow is created. Our
        fee is shown before you commit. If something goes wrong, either side can open a dispute and an admin decides on
        the evidence: release, refund, or a split.
      </p>
      <ButtonLink to="/register">Create your account</ButtonLink>
    </article>
  );
}
