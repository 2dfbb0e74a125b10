/**
 * The panel's data types: the control API's records, exactly as its response schemas
 * describe them (each feature's control schemas, `z.infer`), so the panel is type-checked
 * against what the server sends. Types only: nothing here runs in the browser.
 */

/** @typedef {import('../../src/features/transactions/control.schemas.js').ControlTransaction} Transaction */
/** @typedef {import('../../src/features/transactions/control.schemas.js').Refund} Refund */
/** @typedef {import('../../src/features/transactions/control.schemas.js').TransactionAction} TransactionAction */
/** @typedef {import('../../src/features/subscriptions/control.schemas.js').ControlSubscription} Subscription */
/** @typedef {import('../../src/features/webhooks/control.schemas.js').Delivery} Delivery */
/** @typedef {import('../../src/features/webhooks/control.schemas.js').DeliveryAttempt} DeliveryAttempt */
/** @typedef {import('../../src/features/webhooks/control.schemas.js').DeliverySummary} DeliverySummary */
/** @typedef {import('../../src/features/webhooks/control.schemas.js').DeliveryAttemptSummary} DeliveryAttemptSummary */
/** @typedef {import('../../src/features/webhooks/control.schemas.js').DeliveryState} DeliveryState */
/** @typedef {import('../../src/features/webhooks/control.schemas.js').SignatureExplanation} SignatureExplanation */
/** @typedef {import('../../src/features/sandbox/control.schemas.js').RequestLogEntry} RequestLogEntry */
/** @typedef {import('../../src/features/accounts/control.schemas.js').AccountCredentials} Account */
/** @typedef {import('../../src/features/accounts/control.schemas.js').Credentials} Credentials */
/** @typedef {import('../../src/features/webhooks/control.schemas.js').WebhookKeyForms} WebhookKeyForms */
/** @typedef {import('../../src/features/sandbox/control.schemas.js').Clock} Clock */
/** @typedef {import('../../src/features/accounts/control.js').AccountSettings} AccountSettings */
/** @typedef {import('../../src/features/sandbox/control.schemas.js').ClockAdvanced} ClockAdvanced */
/** @typedef {import('../../src/features/scenarios/control.schemas.js').ScenarioSummary} ScenarioSummary */
/** @typedef {import('../../src/features/check-webhooks/control.js').WebhookCheckReportView} WebhookCheckReport */
/** @typedef {import('../../src/features/transactions/control.schemas.js').WebhookFaultRequest['fault']} WebhookFault */
/** @typedef {import('../../src/features/go-live/report.schemas.js').GoLiveReport} GoLiveReport */
/** @typedef {GoLiveReport['findings'][number]} GoLiveFinding */
/** @typedef {GoLiveReport['coverage'][number]} CoverageEntry */

/**
 * A page of a control API list.
 * @template T
 * @typedef {{ items: T[], limit: number, next_cursor: string | null, previous_cursor: string | null }} Page
 */

/**
 * The lists the panel keeps, by name, and the record each holds.
 * @typedef {{ transactions: Transaction, subscriptions: Subscription, deliveries: DeliverySummary, requests: RequestLogEntry }} ListItems
 * @typedef {keyof ListItems} ListName
 */

/**
 * One loaded list: the items of the pages shown so far.
 * @template T
 * @typedef {{ items: T[], pages: number, nextCursor: string | null, loaded: boolean, error: string | null }} List
 */

/** @typedef {'transactions' | 'subscriptions' | 'webhooks' | 'requests' | 'go-live' | 'credentials' | 'scenarios'} ViewName */

/** @typedef {'connecting' | 'live' | 'reconnecting'} LiveStatus */

/** A view: its root element and an update that brings it up to date with the state. @typedef {{ root: HTMLElement, update(): void }} View */

export {};
