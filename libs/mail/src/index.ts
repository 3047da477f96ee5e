export {
  mailboxTransport,
  smtpTransport,
  transportFromConfig,
  type MailTransport,
  type OutgoingMail,
  type MailboxMessage,
} from './transport.ts';
export {
  MAIL_QUEUE,
  mailQueueSpec,
  enqueueMail,
  deliverOutboxMail,
  startMailWorker,
  type MailJobData,
  type NewMail,
} from './outbox.ts';
