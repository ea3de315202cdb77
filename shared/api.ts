// The JSON envelope of the dashboard API: success is {data}, failure is {error: {code, message}}.
export interface ApiSuccess<T> {
  data: T;
}
export interface ApiErrorBody {
  error: { code: string; message: string; requestId?: string; details?: unknown };
}

export interface Me {
  id: number;
  email: string;
  /** Named in OPERATOR_EMAILS: sees the operator page. */
  is_operator?: boolean;
}

export interface CsrfToken {
  csrfToken: string;
}

export const CSRF_HEADER = 'X-CSRF-Token';
