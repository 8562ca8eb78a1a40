/** Every text the auth endpoints answer with, in one place (the front end shows them as they are). */
import { AppError } from '../../lib/errors';

export const AUTH_MESSAGES = {
  loginSuccess: 'Login successful',
  invalidCredentials: 'Invalid email or password',
  tooManyLogins: 'Too many login attempts. Please try again later.',
  tooManyRequests: 'Too many requests. Please try again later.',
  registered: 'Registration successful. Please check your email to verify your account.',
  refreshed: 'Token refreshed successfully',
  loggedOut: 'Logged out successfully',
  profile: 'Profile retrieved successfully',
  profileUpdated: 'Profile updated successfully',
  passwordChanged: 'Password changed successfully',
  currentPasswordWrong: 'Current password is incorrect',
  emailVerified: 'Email verified successfully',
  invalidVerificationToken: 'Invalid or expired verification token',
  verificationSent: 'If the account exists and is not verified, a verification email has been sent.',
  resetSent: 'If an account exists for that email, a password reset link has been sent.',
  passwordReset: 'Password has been reset successfully',
  invalidResetToken: 'Invalid or expired reset token',
} as const;

/** 403 for a correct sign-in (or a live session) of an account that is suspended or disabled. */
export function inactiveAccountError(status: string): AppError {
  return new AppError(403, `Your account is ${status}. Please contact support.`);
}
