export { saveBlob } from '../../../lib/save-blob.ts';
