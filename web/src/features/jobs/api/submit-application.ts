// Application submit: the CV goes to the private `cvs` bucket under a random folder, then the application row is
// inserted (anon may insert, never read back). File type and size are checked before anything is uploaded.
import { getSupabase } from '@/lib/api';

export const CV_MAX_BYTES = 10 * 1024 * 1024;
const CV_EXTENSIONS = ['pdf', 'doc', 'docx'];
const CV_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
];

export type ApplicationInput = {
  jobId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  coverLetter: string;
  privacyConsent: boolean;
  cv: File;
};

export type CvProblem = 'type' | 'size' | null;

export function checkCv(file: File): CvProblem {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!CV_EXTENSIONS.includes(ext) || (file.type && !CV_TYPES.includes(file.type))) return 'type';
  if (file.size > CV_MAX_BYTES) return 'size';
  return null;
}

/** A storage-safe file name: letters, digits, dot, dash and underscore only. */
export function safeFileName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-+/g, '-').replace(/^[-.]+/, '');
  return (cleaned || 'cv').slice(-100);
}

export async function submitApplication(input: ApplicationInput): Promise<void> {
  const client = await getSupabase();
  const objectName = `${crypto.randomUUID()}/${safeFileName(input.cv.name)}`;
  const upload = await client.storage.from('cvs').upload(objectName, input.cv, {
    contentType: input.cv.type || undefined,
    upsert: false,
  });
  if (upload.error) throw new Error(upload.error.message);
  const { error } = await client.from('applications').insert({
    job_id: input.jobId,
    first_name: input.firstName,
    last_name: input.lastName,
    email: input.email,
    phone: input.phone,
    cover_letter: input.coverLetter || null,
    cv_object: objectName,
    privacy_consent: input.privacyConsent,
  });
  if (error) throw new Error(error.message);
}
