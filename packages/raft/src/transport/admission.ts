/**
 * The words of peer admission that the transport carries: what it proved
 * about a batch's sender, and the node's verdict on the batch. The rule that
 * gives the verdict is the node's (node/peer-admission.ts); the transport
 * only asks and acts on the answer, so these live below both.
 */
/**
 * What the transport proved about a batch's sender: 'verified' when a peer
 * certificate names the node the batch claims to come from; 'authenticated'
 * when the connection proved the cluster's credentials (the cluster secret
 * checked, or a certificate from the cluster's CA that is not checked to name
 * that node); 'claimed' on a plaintext connection, where nothing is checked.
 */
export type SenderIdentity = 'verified' | 'authenticated' | 'claimed';

export type RefusalReason = 'not-member' | 'term-bound';

export type Admission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly reason: RefusalReason; readonly details: string };
