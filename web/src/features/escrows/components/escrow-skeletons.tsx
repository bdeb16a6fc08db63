import { PageSkeleton, SkeletonBlock } from '../../../components/ui/skeleton.tsx';

/** The escrow page's outline while it loads: title, tracker, the next-step box and the details. */
export function EscrowPageSkeleton() {
  return (
    <PageSkeleton label="Loading the escrow...">
      <SkeletonBlock shape="short" />
      <SkeletonBlock shape="title" />
      <SkeletonBlock shape="pill" />
      <SkeletonBlock shape="card" />
      <SkeletonBlock shape="card" />
    </PageSkeleton>
  );
}

/** 'My Escrows' while it loads: three rows. */
export function EscrowListSkeleton() {
  return (
    <PageSkeleton label="Loading your escrows...">
      <SkeletonBlock shape="card" />
      <SkeletonBlock shape="card" />
      <SkeletonBlock shape="card" />
    </PageSkeleton>
  );
}
