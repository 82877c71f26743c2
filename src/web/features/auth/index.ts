import { lazy } from 'react';

/** The feature's pages, each loaded on first visit as its own chunk (app/router.tsx mounts them). */
export const LoginPage = lazy(() => import('./LoginPage.js'));
export const RegisterPage = lazy(() => import('./RegisterPage.js'));
export const VerifyEmailPage = lazy(() => import('./VerifyEmailPage.js'));
export const ResendVerificationPage = lazy(() => import('./ResendVerificationPage.js'));
export const ForgotPasswordPage = lazy(() => import('./ForgotPasswordPage.js'));
export const ResetPasswordPage = lazy(() => import('./ResetPasswordPage.js'));
