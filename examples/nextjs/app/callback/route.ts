// GET /callback (code flow, and the id_token flow's relay page) and POST /callback (the relay's form).
import { validationRoutes } from '@/lib/affiliation';

export const runtime = 'nodejs'; // or 'edge': the SDK runs on both
export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return (await validationRoutes()).callback(request);
}

export async function POST(request: Request): Promise<Response> {
  return (await validationRoutes()).callback(request);
}
