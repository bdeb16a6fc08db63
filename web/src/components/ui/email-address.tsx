/**
 * An e-mail address that may wrap after its @ on a narrow screen. Without the hint, a long address in a phone's
 * column breaks wherever its line runs out, often a letter before its end ("example.co" / "m").
 */
export function EmailAddress({ value }: { value: string }) {
  const at = value.lastIndexOf('@');
  if (at <= 0) return <>{value}</>;
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  );
}
