import { lazy, Suspense } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { RequireUser } from '../auth/route-guard.tsx';
import { Layout } from '../components/layout.tsx';
import { Loading } from '../components/ui/loading.tsx';

// Each page is its own chunk: the landing page never downloads forms, reviews or the signed-in screens.
const page = <T extends Record<string, React.ComponentType>>(load: () => Promise<T>, name: keyof T) =>
  lazy(async () => ({ default: (await load())[name] as React.ComponentType }));

const LandingPage = page(() => import('../features/home/routes/landing-page.tsx'), 'LandingPage');
const AboutPage = page(() => import('../features/content/routes/about-page.tsx'), 'AboutPage');
const HowItWorksPage = page(() => import('../features/content/routes/how-it-works-page.tsx'), 'HowItWorksPage');
const FaqPage = page(() => import('../features/content/routes/faq-page.tsx'), 'FaqPage');
const ReviewsPage = page(() => import('../features/reviews/routes/reviews-page.tsx'), 'ReviewsPage');
const PgpKeyPage = page(() => import('../features/support/routes/pgp-key-page.tsx'), 'PgpKeyPage');
const TransparencyPage = page(
  () => import('../features/transparency/routes/transparency-page.tsx'),
  'TransparencyPage',
);
const ContactPage = page(() => import('../features/support/routes/contact-page.tsx'), 'ContactPage');
const LoginPage = page(() => import('../features/auth/routes/login-page.tsx'), 'LoginPage');
const RegisterPage = page(() => import('../features/auth/routes/register-page.tsx'), 'RegisterPage');
const VerifyEmailPage = page(() => import('../features/auth/routes/verify-email-page.tsx'), 'VerifyEmailPage');
const DashboardPage = page(() => import('../features/escrows/routes/dashboard-page.tsx'), 'DashboardPage');
const EscrowPage = lazy(async () => ({
  default: (await import('../features/escrows/routes/escrow-page.tsx')).EscrowPage,
}));
const EscrowProofCard = lazy(async () => ({
  default: (await import('../features/transparency/components/escrow-proof-card.tsx')).EscrowProofCard,
}));
const ProfilePage = page(() => import('../features/profile/routes/profile-page.tsx'), 'ProfilePage');
const AdminPage = page(() => import('../features/admin/routes/admin-page.tsx'), 'AdminPage');
const SetupPage = page(() => import('../features/setup/routes/setup-page.tsx'), 'SetupPage');
const NotFoundPage = page(() => import('../components/not-found-page.tsx'), 'NotFoundPage');

const suspended = (element: React.ReactNode) => <Suspense fallback={<Loading />}>{element}</Suspense>;

/** The escrow page shows the escrow's proof in the transparency log (its own chunk: it carries the signature code). */
function EscrowProof(props: { escrowId: string; updatedAt: string }) {
  return (
    <Suspense fallback={<Loading label="Loading the escrow's proof..." />}>
      <EscrowProofCard {...props} />
    </Suspense>
  );
}

export const routes = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: suspended(<LandingPage />) },
      { path: '/about', element: suspended(<AboutPage />) },
      { path: '/how-it-works', element: suspended(<HowItWorksPage />) },
      { path: '/faq', element: suspended(<FaqPage />) },
      { path: '/reviews', element: suspended(<ReviewsPage />) },
      { path: '/pgp-key', element: suspended(<PgpKeyPage />) },
      { path: '/contact', element: suspended(<ContactPage />) },
      { path: '/transparency', element: suspended(<TransparencyPage />) },
      { path: '/login', element: suspended(<LoginPage />) },
      { path: '/register', element: suspended(<RegisterPage />) },
      { path: '/verify-email', element: suspended(<VerifyEmailPage />) },
      { path: '/setup', element: suspended(<SetupPage />) },
      { path: '/dashboard', element: <RequireUser>{suspended(<DashboardPage />)}</RequireUser> },
      { path: '/escrow/:id', element: <RequireUser>{suspended(<EscrowPage proofCard={EscrowProof} />)}</RequireUser> },
      { path: '/profile', element: <RequireUser>{suspended(<ProfilePage />)}</RequireUser> },
      { path: '/admin', element: <RequireUser admin>{suspended(<AdminPage />)}</RequireUser> },
      { path: '*', element: suspended(<NotFoundPage />) },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
