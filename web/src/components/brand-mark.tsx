/** The brand mark: a shield with a check, drawn inline so no font or image request is needed. */
export function BrandMark() {
  return (
    <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="16" fill="#8f4207" />
      <path d="M16 6 8 9.5v6.2c0 5 3.4 9.2 8 10.3 4.6-1.1 8-5.3 8-10.3V9.5L16 6Z" fill="#fff" />
      <path
        d="m12.2 16.2 2.7 2.7 5-5.4"
        fill="none"
        stroke="#8f4207"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
