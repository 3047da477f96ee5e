/**
 * The account screens (sign-up, email confirmation, sessions, profile, avatar, preferences,
 * transactions, private files, account deletion) register themselves here with `registerScreen`,
 * as `screens/index.ts` does for the rest. See apps/web/README.md.
 */
export {};
