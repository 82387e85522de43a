import type { Translate } from '../../../../schemas/kit/i18n';

/** Message keys of the audited actions (server/passport/audit.ts). */
export const ACTION_KEYS = {
  login: 'console.system.log.actions.login',
  loginFailed: 'console.system.log.actions.loginFailed',
  logout: 'console.system.log.actions.logout',
  passwordChange: 'console.system.log.actions.passwordChange',
  passwordReset: 'console.system.log.actions.passwordReset',
  memberUnlock: 'console.system.log.actions.memberUnlock',
  simulateLogin: 'console.system.log.actions.simulateLogin',
  simulateLogout: 'console.system.log.actions.simulateLogout',
  roleCreate: 'console.system.log.actions.roleCreate',
  roleUpdate: 'console.system.log.actions.roleUpdate',
  roleDelete: 'console.system.log.actions.roleDelete',
  roleAuthorize: 'console.system.log.actions.roleAuthorize',
  memberRegister: 'console.system.log.actions.memberRegister',
  memberUpdate: 'console.system.log.actions.memberUpdate',
  orgCreate: 'console.system.log.actions.orgCreate',
  orgUpdate: 'console.system.log.actions.orgUpdate',
  orgDelete: 'console.system.log.actions.orgDelete',
  resourceCreate: 'console.system.log.actions.resourceCreate',
  resourceUpdate: 'console.system.log.actions.resourceUpdate',
  resourceDelete: 'console.system.log.actions.resourceDelete',
  entityDelete: 'console.system.log.actions.entityDelete',
  locationShare: 'console.system.log.actions.locationShare',
  locationRevoke: 'console.system.log.actions.locationRevoke',
  tripSettingEdit: 'console.system.log.actions.tripSettingEdit',
  safetySettingEdit: 'console.system.log.actions.safetySettingEdit',
  safetyEventReview: 'console.system.log.actions.safetyEventReview',
  policyRederive: 'console.system.log.actions.policyRederive',
  terminalRefused: 'terminalRegistration.auditActions.terminalRefused',
  terminalSessionReplaced: 'terminalRegistration.auditActions.terminalSessionReplaced',
  terminalResetRegistration: 'terminalRegistration.auditActions.terminalResetRegistration',
  terminalIdentityClash: 'terminalRegistration.auditActions.terminalIdentityClash',
  terminalCommand: 'terminalRegistration.auditActions.terminalCommand',
  upgradePackageUpload: 'terminalRegistration.auditActions.upgradePackageUpload',
  labelDraft: 'labels.auditActions.labelDraft',
  labelPublish: 'labels.auditActions.labelPublish',
  labelReset: 'labels.auditActions.labelReset',
  apiKeyCreate: 'apiKey.auditActions.apiKeyCreate',
  apiKeyUpdate: 'apiKey.auditActions.apiKeyUpdate',
  apiKeyRevoke: 'apiKey.auditActions.apiKeyRevoke',
  apiKeyRefused: 'apiKey.auditActions.apiKeyRefused',
  subscriptionCreate: 'subscription.auditActions.subscriptionCreate',
  subscriptionUpdate: 'subscription.auditActions.subscriptionUpdate',
  subscriptionDelete: 'subscription.auditActions.subscriptionDelete',
  subscriptionReplay: 'subscription.auditActions.subscriptionReplay',
  subscriptionPaused: 'subscription.auditActions.subscriptionPaused',
  forwardLinkCreate: 'forwarding.auditActions.forwardLinkCreate',
  forwardLinkUpdate: 'forwarding.auditActions.forwardLinkUpdate',
  forwardLinkDelete: 'forwarding.auditActions.forwardLinkDelete',
  driverCardAssign: 'driverCard.auditAssign',
  videoOpen: 'video.auditActions.videoOpen',
  videoClose: 'video.auditActions.videoClose',
  playbackOpen: 'video.auditActions.playbackOpen',
  playbackClose: 'video.auditActions.playbackClose',
} as const;

const CLIENT_PREFIX = 'client:';

/** An action's name: known ones translated, the console's own events (`client:…`) marked as such. */
export function actionLabel(action: string, t: Translate): string {
  if (action.startsWith(CLIENT_PREFIX)) return t('console.system.log.clientAction', { action: action.slice(CLIENT_PREFIX.length) });
  return action in ACTION_KEYS ? t(ACTION_KEYS[action as keyof typeof ACTION_KEYS]) : action;
}
