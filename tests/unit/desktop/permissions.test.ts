import { describe, expect, it } from 'vitest';
import { isPermissionAllowed } from '../../../desktop/main/permissions';

const origin = 'http://localhost:3000';

describe('isPermissionAllowed', () => {
  it('lets Cairn pages write to the clipboard', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'http://localhost:3000/dashboard/project/p1', origin)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'http://localhost:3000', origin)).toBe(true);
  });

  it('refuses the clipboard to other origins', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://newassets.hcaptcha.com/', origin)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', undefined, origin)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'garbage', origin)).toBe(false);
  });

  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'hid', 'usb', 'unknown'])(
    'refuses %s even to Cairn',
    (permission) => {
      expect(isPermissionAllowed(permission, 'http://localhost:3000/dashboard', origin)).toBe(false);
    },
  );
});
