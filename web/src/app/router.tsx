import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Layout } from '../components/layout.tsx';
import { NotFoundPage } from '../components/not-found-page.tsx';
import { HomePage } from '../features/home/home-page.tsx';

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
