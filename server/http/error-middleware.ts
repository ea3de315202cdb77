import type { ErrorRequestHandler, Request, Response } from 'express';
import { ZodError } from 'zod';
import { AppError } from '../errors';
import type { Logger } from '../logger';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

const send = (res: Response, status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  res.status(status).json({ error: { code, message, ...extra } });

/** Maps every error to {error: {code, message}}. Unexpected ones answer 500 with a request id; the stack goes to the log only. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof AppError) {
      return send(res, err.status, err.code, err.message, err.details === undefined ? {} : { details: err.details });
    }
    if (err instanceof ZodError) {
      const first = err.issues[0];
      const details = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      return send(res, 400, 'invalid', first?.message ?? 'The request is not valid.', { details });
    }
    const bp = err as BodyParserError;
    if (bp && typeof bp === 'object' && typeof bp.type === 'string') {
      if (bp.type === 'entity.parse.failed') return send(res, 400, 'malformed_json', 'The request body is not valid JSON.');
      if (bp.type === 'entity.too.large') return send(res, 400, 'body_too_large', 'The request body is larger than 1 MB.');
      if (bp.type === 'encoding.unsupported' || bp.type === 'charset.unsupported')
        return send(res, 400, 'unsupported_encoding', 'The request body encoding is not supported.');
      if (typeof bp.status === 'number' && bp.status >= 400 && bp.status < 500)
        return send(res, 400, 'bad_request', 'The request could not be read.');
    }
    // http-errors from express itself (static files, send): a 4xx is the client's, not ours.
    const status = (bp as { status?: unknown; statusCode?: unknown })?.status ?? (bp as { statusCode?: unknown })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return status === 404
        ? send(res, 404, 'not_found', 'Not found.')
        : send(res, status, 'bad_request', 'The request could not be handled.');
    }
    const requestId = String(req.id ?? '');
    (req.log ?? logger).error({ err, requestId }, 'unhandled error');
    return send(res, 500, 'internal', 'Something went wrong on our side. Please try again later.', { requestId });
  };
}
