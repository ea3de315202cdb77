// Typed domain errors. Services throw these; one middleware maps them to status + {error: {code, message}}.
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class Invalid extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, 'invalid', message, details);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'You need to sign in to do that.') {
    super(401, 'unauthorized', message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'You are not allowed to do that.') {
    super(403, 'forbidden', message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}
export class PlanLimit extends AppError {
  constructor(message: string, details?: unknown) {
    super(422, 'plan_limit', message, details);
  }
}
