import { useEffect, useId, useState } from 'react';

/** Dark modules as one SVG path, one unit per module. */
function pathOf(size: number, data: ArrayLike<number>): string {
  let d = '';
  for (let y = 0; y < size; y += 1) for (let x = 0; x < size; x += 1) if (data[y * size + x]) d += `M${x} ${y}h1v1h-1z`;
  return d;
}

/**
 * A QR code drawn here in the browser (the `qrcode` package, loaded only when a code is shown): nothing is sent to
 * another host. Rendered as SVG with a quiet zone of 4 modules.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [matrix, setMatrix] = useState<{ size: number; path: string } | null>(null);
  const [failed, setFailed] = useState(false);
  const titleId = useId();
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((mod) => {
        // A CommonJS module: its functions are on the namespace or on its default export, by bundler.
        const create = mod.create ?? (mod as unknown as { default: typeof mod }).default.create;
        const { modules } = create(text, { errorCorrectionLevel: 'M' });
        if (live) setMatrix({ size: modules.size, path: pathOf(modules.size, modules.data) });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [text]);
  if (failed)
    return <p className="small muted">The QR code cannot be drawn here; copy the address and amount instead.</p>;
  // Named while it is drawn too, so the dialog reads the same before and after the code appears.
  if (!matrix) return <div className="qr-placeholder" role="img" aria-label={label} />;
  const box = matrix.size + 8;
  return (
    <svg
      className="qr-code"
      role="img"
      aria-labelledby={titleId}
      viewBox={`-4 -4 ${box} ${box}`}
      shapeRendering="crispEdges"
    >
      <title id={titleId}>{label}</title>
      <rect x={-4} y={-4} width={box} height={box} fill="#fff" />
      <path d={matrix.path} fill="#000" />
    </svg>
  );
}
