export const DESCRIPTION = 'Try webhook conditions on a sample event: what each one selects, and whether the event would fire. It runs the same matcher as delivery, in this page.';
