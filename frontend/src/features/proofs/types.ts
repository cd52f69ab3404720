/** A proof of delivery as the page uses it: images always a list of URLs. */
export type Proof = {
  id: number;
  items: string;
  images: string[];
  created_at?: string;
};

/** As the server may send it: images as a list, or as a JSON-encoded list (docs/product.md, Data). */
export type ProofFromApi = Omit<Proof, 'images'> & { images: string[] | string | null };
